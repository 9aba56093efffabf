from .views import (
    archive,
    clock,
    create,
    desk,
    email,
    fair_deal,
    hidden_posts,
    live,
    lobby,
    notifications,
    play,
    profiles,
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
    + hidden_posts.urlpatterns
    + reveal.urlpatterns
    + fair_deal.urlpatterns
    + rules.urlpatterns
    + email.urlpatterns
    + clock.urlpatterns
    + live.urlpatterns
    + notifications.urlpatterns
    + profiles.urlpatterns
    + archive.urlpatterns
)
