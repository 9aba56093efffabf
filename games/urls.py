from .views import (
    absences,
    clock,
    create,
    desk,
    email,
    hidden_posts,
    lab,
    live,
    lobby,
    notes,
    notifications,
    play,
    reading,
    replacements,
    role,
    rooms,
    rules,
    signups,
)

# Each views module owns its routes.
urlpatterns = (
    lobby.urlpatterns
    + create.urlpatterns
    + lab.urlpatterns
    + play.urlpatterns
    + role.urlpatterns
    + rooms.urlpatterns
    + desk.urlpatterns
    + hidden_posts.urlpatterns
    + replacements.urlpatterns
    + signups.urlpatterns
    + absences.urlpatterns
    + rules.urlpatterns
    + email.urlpatterns
    + clock.urlpatterns
    + reading.urlpatterns
    + live.urlpatterns
    + notes.urlpatterns
    + notifications.urlpatterns
)
