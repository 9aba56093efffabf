from .views import (
    clock,
    create,
    desk,
    email,
    hidden_posts,
    live,
    lobby,
    notifications,
    play,
    post_edits,
    role,
    rooms,
    rules,
)

# Each views module owns its routes.
urlpatterns = (
    lobby.urlpatterns
    + create.urlpatterns
    + play.urlpatterns
    + post_edits.urlpatterns
    + role.urlpatterns
    + rooms.urlpatterns
    + desk.urlpatterns
    + hidden_posts.urlpatterns
    + rules.urlpatterns
    + email.urlpatterns
    + clock.urlpatterns
    + live.urlpatterns
    + notifications.urlpatterns
)
