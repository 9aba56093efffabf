from .views import clock, create, desk, email, lobby, play, reveal, role, rooms, rules

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
)
