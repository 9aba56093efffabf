from .views import clock, create, email, lobby, play, reveal, role, rules

# Each views module owns its routes.
urlpatterns = (
    lobby.urlpatterns
    + create.urlpatterns
    + play.urlpatterns
    + role.urlpatterns
    + reveal.urlpatterns
    + rules.urlpatterns
    + email.urlpatterns
    + clock.urlpatterns
)
