"""Getting an API token without the HTML login (issue 12 §9): username and password in, the
user's token out; the token revokes itself. Behind the same django-axes lockout as the login
form (a locked-out pair gets 429 with `Retry-After`) and a throttle of its own per address."""

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from altherion.profile import api_token_revoke
from common.api_errors import ApiErrorSerializer, ApiSchema
from common.api_fields import TextField
from common.parsers import JSONParser


class TokenIn(serializers.Serializer):
    username = TextField(max_length=150)
    password = TextField(max_length=4096, trim_whitespace=False)


class TokenOut(serializers.Serializer):
    token = serializers.CharField(
        help_text="À envoyer en en-tête : `Authorization: Token <token>`."
    )


class AuthToken(APIView):
    """POST: your API token from your username and password (the one of your profile page,
    made if you have none). DELETE: revoke the token the request is authenticated with."""

    schema = ApiSchema()
    api_tag = "Authentification"
    api_descriptions = {
        "POST": "Your API token from your username and password (the one of your profile page, "
        "made if you have none). Failures count towards the login's lockout.",
        "DELETE": "Revoke the token this request is authenticated with.",
    }
    parser_classes = [JSONParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth-token"
    input_serializer_class = TokenIn
    output_serializer_class = TokenOut

    def _is_login(self) -> bool:
        return getattr(self.request, "method", None) == "POST"  # None: the schema generator

    def get_permissions(self):
        return [AllowAny()] if self._is_login() else [IsAuthenticated()]

    def get_authenticators(self):
        # A POST proves who it is by its password: no session, so no CSRF token either.
        return [] if self._is_login() else super().get_authenticators()

    @extend_schema(
        responses={
            200: TokenOut,
            400: OpenApiResponse(ApiErrorSerializer, description="Identifiants incorrects."),
            429: OpenApiResponse(
                ApiErrorSerializer,
                description="Trop d'échecs pour ce nom depuis cette adresse, ou trop de "
                "demandes : attendez les secondes de `Retry-After`.",
            ),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        serializer = TokenIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        # A locked-out pair raises LoginLockedOut here (altherion/auth_backends.py).
        user = authenticate(
            request,
            username=serializer.validated_data["username"],
            password=serializer.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise exceptions.ValidationError(
                {"non_field_errors": [_("Nom d'utilisateur ou mot de passe incorrect.")]}
            )
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        api_token_revoke(user=request.user)
        return Response(status=204)
