app_name = "characters"
urlpatterns: list = []
