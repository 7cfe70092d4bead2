app_name = "characters_api"
urlpatterns: list = []
