app_name = "campaigns_api"
urlpatterns: list = []
