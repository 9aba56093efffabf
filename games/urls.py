from .views import lobby, rules

# Each views module owns its routes.
urlpatterns = lobby.urlpatterns + rules.urlpatterns
