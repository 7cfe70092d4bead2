from django.apps import AppConfig


class AltherionConfig(AppConfig):
    """Project-wide pieces: accounts pages, health, the demo seed and the Celery heartbeat."""

    name = "altherion"
    verbose_name = "Altherion"

    def ready(self) -> None:
        from celery.signals import task_postrun, task_prerun
        from django.contrib.auth import get_user_model
        from django.core.signals import request_finished, request_started
        from django.db.models.signals import post_delete, post_save
        from rest_framework.authtoken.models import Token

        from altherion.auth_backends import forget_token, forget_user
        from common import db_outage, generations, translation_memo

        translation_memo.install()

        user_model = get_user_model()
        post_save.connect(forget_user, sender=user_model, dispatch_uid="forget-cached-user")
        post_delete.connect(forget_user, sender=user_model, dispatch_uid="forget-cached-user-del")
        post_save.connect(forget_token, sender=Token, dispatch_uid="forget-cached-token")
        post_delete.connect(forget_token, sender=Token, dispatch_uid="forget-cached-token-del")
        request_finished.connect(generations.settle, dispatch_uid="settle-generations")
        task_postrun.connect(generations.settle, dispatch_uid="settle-generations-job", weak=False)
        request_started.connect(db_outage.request_began, dispatch_uid="drop-ended-connection")
        request_finished.connect(db_outage.request_ended, dispatch_uid="request-ended-outage")
        task_prerun.connect(
            db_outage.drop_ended, dispatch_uid="drop-ended-connection-job", weak=False
        )
