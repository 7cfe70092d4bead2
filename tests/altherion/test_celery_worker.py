import time
import uuid

from altherion.models import Heartbeat
from altherion.tasks import ping


def test_ping_writes_one_row_even_when_run_twice(db):
    ping.delay("same-token")
    ping.delay("same-token")
    assert Heartbeat.objects.filter(token="same-token").count() == 1


def test_a_real_worker_runs_the_ping_through_redis(celery_worker):
    token = uuid.uuid4().hex
    ping.delay(token)
    deadline = time.monotonic() + 20
    while not Heartbeat.objects.filter(token=token).exists():
        assert time.monotonic() < deadline, "the worker never wrote the heartbeat"
        time.sleep(0.1)
