from django.apps import AppConfig


class AltherionConfig(AppConfig):
    """Project-wide pieces: accounts pages, health, the demo seed and the Celery heartbeat."""

    name = "altherion"
    verbose_name = "Altherion"

    def ready(self) -> None:
        from axes.signals import user_locked_out

        from altherion.auth_backends import refuse_locked_out_api_login

        user_locked_out.connect(refuse_locked_out_api_login, dispatch_uid="api-login-locked-out")
