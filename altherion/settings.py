"""Settings for the Altherion campaign manager, read from the environment.

With no variables set the app runs in its embedded mode: SQLite under var/, Celery tasks run
in-process, DEBUG on and a secret key made once and kept under var/ (`make run` serves that mode
with DEBUG=0). Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and
CELERY_BROKER_URL (the names docker-compose.yml uses).
"""

import secrets
from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

# The embedded mode's files (SQLite database, secret key); tests point it at a temporary folder.
VAR_DIR = Path(env.str("VAR_DIR", default=str(BASE_DIR / "var")))

EMBEDDED_DATABASE = not env.str("DATABASE_URL", default="")
DEBUG = env.bool("DEBUG", default=EMBEDDED_DATABASE)


def _local_secret_key() -> str:
    """The embedded mode's own key, made once (readable by its owner only) so sessions survive a
    restart."""
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        key_file.touch(mode=0o600)
        key_file.write_text(secrets.token_urlsafe(50))
    return key_file.read_text().strip()


# A server on PostgreSQL (production) must be given its key; the embedded mode, debug server or
# `make run` (DEBUG off on SQLite), keeps its own under var/.
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG and not EMBEDDED_DATABASE:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off with DATABASE_URL.")
    SECRET_KEY = _local_secret_key()

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "altherion",
    "campaigns",
    "characters",
    "sessions",
    "progression",
    "world",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "common.request_line.RequestLineLimitMiddleware",
    "altherion.middleware.RequestSizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "altherion.middleware.PrivateResponsesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "altherion.urls"
WSGI_APPLICATION = "altherion.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "altherion.context_processors.live",
            ],
        },
    },
]

if EMBEDDED_DATABASE:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "altherion.sqlite3",
            # `make run` serves a table with threads: readers never wait for a writer (WAL), and a
            # write transaction takes its lock at once instead of failing on "database is locked".
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
        }
    }
else:
    DATABASES = {"default": env.db("DATABASE_URL")}
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_URL must be a postgres:// URL.")
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    # A kept connection PostgreSQL has ended (a restart) is replaced at its first use in a
    # request, instead of failing that request.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # A statement run PREPARE_THRESHOLD times on a connection is prepared by psycopg: PostgreSQL
    # then skips its planning, most of what the small hot reads (a membership, new log rows)
    # cost it. That needs server-side parameters and a connection of one's own: 0 turns it off
    # (Django's default, client-side binding) behind a pooler in transaction mode.
    PREPARE_THRESHOLD = env.int("DB_PREPARE_THRESHOLD", default=5)
    if PREPARE_THRESHOLD > 0:
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=PREPARE_THRESHOLD
        )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# What every process must share (the API throttles' counts, the sessions' cache) lives in Redis
# when REDIS_CACHE_URL is set (e.g. redis://redis:6379/1); the embedded default keeps it in each
# process's memory. A cache that does not answer is a miss, never an error (IGNORE_EXCEPTIONS):
# sessions are then read from the database and throttles let requests through.
REDIS_CACHE_URL = env.str("REDIS_CACHE_URL", default="")
# Cached fragments and API bodies are keyed on the rows' versions, not on the code: a deploy that
# changes a template sets RELEASE (e.g. the commit) so it never serves the former release's HTML.
CACHE_KEY_PREFIX = env.str("RELEASE", default="")
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "KEY_PREFIX": CACHE_KEY_PREFIX,
    }
}
if REDIS_CACHE_URL:
    if not REDIS_CACHE_URL.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured("REDIS_CACHE_URL must be a redis:// URL.")
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_CACHE_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "OPTIONS": {
                "SOCKET_CONNECT_TIMEOUT": 1,
                "SOCKET_TIMEOUT": 1,
                "IGNORE_EXCEPTIONS": True,
                "LOG_IGNORED_EXCEPTIONS": True,
            },
        }
    }
# A signed-in request reads its session from the cache (the database when the cache misses).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a login while its username+address pair is locked out. Then
# Django's model backend: each request reads its user, so a password changed in any process
# signs the other sessions out at their next request (the session's hash no longer matches).
AUTHENTICATION_BACKENDS = [
    "altherion.auth_backends.LoginAttemptsBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login brute force: after AXES_FAILURE_LIMIT failures for one username from one address, that
# pair is locked out for AXES_COOLOFF_MINUTES; a successful login clears its failures.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "altherion.auth_backends.lockout_response"
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Mail (password resets, invitations): SMTP when EMAIL_HOST is set, else written to the console
# (the embedded mode, and a server not yet given a mail relay: its log shows what would be sent).
EMAIL_HOST = env.str("EMAIL_HOST", default="")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env.int("EMAIL_PORT", default=587)
    EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=True)
    EMAIL_TIMEOUT = 10  # seconds: a relay that hangs must not hold a page for ever
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Altherion <noreply@localhost>")

LANGUAGE_CODE = "fr"
# The pages are French whatever the browser asks for: French is the only language offered, so
# LocaleMiddleware always falls back to it (an English UI is one catalogue and one line away).
LANGUAGES = [("fr", _("Français"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
# Uploaded files (the world's page images): local files under MEDIA_ROOT by default, or an
# S3-compatible bucket when MEDIA_S3_BUCKET is set. Never served as public URLs: a view checks
# who asks and streams the file (world/views.py), so MEDIA_URL stays unset and unserved.
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
MEDIA_S3_BUCKET = env.str("MEDIA_S3_BUCKET", default="")
DEFAULT_STORAGE = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
if MEDIA_S3_BUCKET:
    DEFAULT_STORAGE = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": MEDIA_S3_BUCKET,
            "endpoint_url": env.str("MEDIA_S3_ENDPOINT_URL", default="") or None,
            "region_name": env.str("MEDIA_S3_REGION", default="") or None,
            "access_key": env.str("MEDIA_S3_ACCESS_KEY_ID", default="") or None,
            "secret_key": env.str("MEDIA_S3_SECRET_ACCESS_KEY", default="") or None,
            "location": env.str("MEDIA_S3_PREFIX", default=""),
            "default_acl": "private",
            "file_overwrite": False,
        },
    }
STORAGES = {
    "default": DEFAULT_STORAGE,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Production over HTTPS: on by default whenever DEBUG is off. TLS ends at the proxy in front of
# gunicorn (Caddy in docker-compose.yml), which sets X-Forwarded-Proto on every request it passes;
# gunicorn must then be reachable only through it, or a client could claim HTTPS itself.
HTTPS = env.bool("HTTPS", default=not DEBUG)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # Health checks speak plain HTTP to gunicorn from inside its container, without the proxy.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# No inline scripts, no eval, nothing from another origin. Style attributes stay allowed: gauge
# bars set their widths that way, and a style attribute cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Request bodies: forms and JSON stay far below 1 MiB; a larger body is refused with a 400
# before any view reads it (Django raises RequestDataTooBig).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=1024 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = env.int("DATA_UPLOAD_MAX_NUMBER_FIELDS", default=1000)
DATA_UPLOAD_MAX_NUMBER_FILES = 10
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "common.api_errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "common.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Per signed-in user (session or token alike) and per address for anonymous clients, counted
    # in the default cache (shared through Redis when REDIS_CACHE_URL is set). A cache that does
    # not answer reads as empty (IGNORE_EXCEPTIONS above), so requests go through: a Redis outage
    # never takes the API down.
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.UserRateThrottle",
        "rest_framework.throttling.AnonRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env.str("API_THROTTLE_USER", default="600/min"),
        "anon": env.str("API_THROTTLE_ANON", default="60/min"),
        "auth-token": env.str("API_THROTTLE_TOKEN", default="10/min"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Altherion API",
    "DESCRIPTION": "Campagnes, personnages, jets et moral d'Altherion.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The API's sections, in a newcomer's order: every operation carries one of these (its view's
    # `api_tag`, docs/api.md#sections), and Swagger UI lists them in this order.
    "TAGS": [
        {"name": "Authentification", "description": "Obtenir et révoquer son jeton."},
        {"name": "Campagnes", "description": "Les campagnes dont vous êtes membre."},
        {"name": "Membres", "description": "Les joueurs d'une campagne et leurs rôles."},
        {"name": "Invitations", "description": "Les liens d'invitation du Conteur."},
        {"name": "Arcs", "description": "Les arcs d'une campagne."},
        {"name": "Séances", "description": "Les séances d'un arc."},
        {"name": "Personnages", "description": "Les fiches : création, lecture, écritures."},
        {"name": "Compendium", "description": "Espèces, classes, voies, aptitudes, atouts…"},
        {"name": "Table", "description": "Jets, journal, Moral, Fatalité et Fortune."},
        {"name": "Combat", "description": "Les combats : participants, tours, attaques, sorts."},
        {"name": "Expérience", "description": "L'expérience d'un arc et ce qu'elle achète."},
        {"name": "Entraînements", "description": "Les entraînements d'un personnage."},
        {"name": "Ellipses", "description": "Le temps qui passe entre deux arcs."},
        {"name": "Notifications", "description": "Ce qui vous attend."},
        {
            "name": "Monde",
            "description": "Le wiki de la campagne : pages, liens, recherche, documents remis.",
        },
    ],
    # Tags folded: past 150 tags and operations shown, Swagger UI draws only those on screen,
    # and a page listing every operation showed its first three sections. Filter by tag name.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "docExpansion": "none", "filter": True},
    # Choice sets several request shapes share (a sheet's rows, as written and as exported).
    "ENUM_NAME_OVERRIDES": {
        "SkillRowKindEnum": ["skill", "forgotten_domain"],
        "LanguageKeyEnum": "characters.serializers.LANGUAGE_KEYS",
        "WorldPageKindEnum": "world.models.PageKind",
        "WorldHandoutKindEnum": "world.models.HandoutKind",
        "WorldBacklinkKindEnum": ["page", "journal"],
        "WorldHitKindEnum": ["page", "compendium", "journal"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "sessions.stream_schema.add_event_stream",  # the live log, an async view (SSE)
    ],
}

# Live pages (docs/architecture.md#live-pages): each open page holds a Server-Sent Events stream.
# Writes publish after their commit on Redis pub/sub (REDIS_URL, else the broker's Redis), so any
# web process or worker reaches every page; without Redis, within the one process (embedded).
_broker = env.str("CELERY_BROKER_URL", default="")
PUSH_REDIS_URL = env.str(
    "REDIS_URL", default=_broker if _broker.startswith(("redis://", "rediss://")) else ""
)
# Channels are named for the database unless this names them (common.push.prefix).
PUSH_PREFIX = env.str("PUSH_PREFIX", default="")
# Pages open a stream (off where the server cannot stream: the test suite's in-process server).
LIVE_PUSH = env.bool("LIVE_PUSH", default=True)
# How often a page asks instead while its stream is down (or when LIVE_PUSH is off).
LIVE_POLL_SECONDS = env.float("LIVE_POLL_SECONDS", default=10.0)
# A comment line this often keeps proxies from closing a quiet stream, and finds closed pages.
LIVE_HEARTBEAT_SECONDS = 15.0

# Celery: a real broker when CELERY_BROKER_URL is set, otherwise tasks run in-process.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task is acknowledged once done (acks_late): if its worker dies, Redis gives the message to
# another worker after `visibility_timeout`, sized above the longest job (an award or an ellipse
# close for a thousand characters takes well under a minute), so a live job is never handed out
# twice. A job whose worker died is sent again sooner by the beat's lease sweep (jobs-requeue).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "visibility_timeout": 600,
}
# With the broker down, a page that queues a job answers within a second or two: the send is tried
# twice, then the job stays pending and the beat's `jobs-requeue` sends it again later.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE: dict = {
    "ellipse-deadlines": {"task": "progression.tasks.ellipse_deadlines_sweep", "schedule": 60.0},
    # Twice per lease (progression.services.JOB_LEASE, 20 s): an orphaned job is sent again
    # within 30 s of its last heartbeat.
    "jobs-requeue": {"task": "progression.tasks.jobs_requeue", "schedule": 10.0},
    # Webhook deliveries left waiting (campaigns.webhooks.deliveries_requeue).
    "webhook-deliveries-requeue": {
        "task": "campaigns.tasks.webhook_deliveries_requeue",
        "schedule": 60.0,
    },
}

# Webhooks (campaigns/webhooks.py): each attempt waits at most WEBHOOK_TIMEOUT seconds; a hook
# failing WEBHOOK_FAILURE_LIMIT attempts in a row is disabled until its Conteur turns it back on.
# Plain http is accepted only to this machine (127.0.0.1, ::1, localhost), and only when
# WEBHOOK_ALLOW_LOOPBACK is on (DEBUG's value by default): a local receiver, never in production.
WEBHOOK_TIMEOUT = env.float("WEBHOOK_TIMEOUT", default=5.0)
WEBHOOK_FAILURE_LIMIT = env.int("WEBHOOK_FAILURE_LIMIT", default=10)
WEBHOOK_ALLOW_LOOPBACK = env.bool("WEBHOOK_ALLOW_LOOPBACK", default=DEBUG)
# Without a broker (tasks run in-process) a delivery runs in a thread of its own, so the request
# that wrote the news never waits on the hook; the test suite runs it inline instead.
WEBHOOK_EAGER_IN_THREAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
