from .views import clock, email, lobby, rules

# Each views module owns its routes.
urlpatterns = lobby.urlpatterns + rules.urlpatterns + email.urlpatterns + clock.urlpatterns
