from django.db import models


class Heartbeat(models.Model):
    """A row written by the ping task: proof that a worker reached the database."""

    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.token
