from .views import (
    clock,
    create,
    desk,
    email,
    live,
    lobby,
    notes,
    notifications,
    play,
    reading,
    reveal,
    role,
    rooms,
    rules,
)

# Each views module owns its routes.
urlpatterns = (
    lobby.urlpatterns
    + create.urlpatterns
    + play.urlpatterns
    + role.urlpatterns
    + rooms.urlpatterns
    + desk.urlpatterns
    + reveal.urlpatterns
    + rules.urlpatterns
    + email.urlpatterns
    + clock.urlpatterns
    + reading.urlpatterns
    + live.urlpatterns
    + notes.urlpatterns
    + notifications.urlpatterns
)
