"""The campaign's webhook in the API (`/api/campaigns/<id>/webhook/`): the Conteur only — its
address is a secret, so a player gets 403 and a non-member 404, as everywhere in a campaign.
The same services as the settings page (`campaigns.webhooks`)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns import selectors, webhooks
from campaigns.api import InCampaignView
from campaigns.models import Webhook


class WebhookIn(serializers.Serializer):
    url = serializers.CharField(
        max_length=500,
        help_text=_(
            'Un webhook Discord ou toute adresse https qui accepte du JSON (`{"content": …}`).'
        ),
    )


class WebhookOut(serializers.ModelSerializer):
    class Meta:
        model = Webhook
        fields = [
            "url",
            "enabled",
            "failures",
            "last_error",
            "last_error_at",
            "last_success_at",
            "disabled_at",
        ]
        extra_kwargs = {
            "enabled": {"help_text": _("Faux après trop d'échecs d'affilée : voir « enable ».")},
            "failures": {"help_text": _("Échecs d'affilée depuis le dernier envoi réussi.")},
        }


class WebhookView(InCampaignView):
    api_tag = "Campagnes"
    storyteller_reads = True
    queryset = Webhook.objects.none()
    output_serializer_class = WebhookOut

    def rows(self):
        return Webhook.objects.filter(campaign=self.campaign)

    def hook(self) -> Webhook:
        hook = selectors.webhook_for_campaign(campaign=self.campaign)
        if hook is None:
            raise Http404(gettext("Cette campagne n'a pas de webhook."))
        return hook

    def get_object(self) -> Webhook:
        # DRF's OPTIONS describes PUT by reading the object; there is one per campaign.
        return self.hook()


class WebhookDetail(WebhookView):
    """The campaign's webhook (the Conteur): read it, set its address, remove it."""

    api_descriptions = {
        "GET": "The campaign's webhook and its state (404 when it has none).",
        "PUT": "Point the campaign at a webhook (a new address is enabled with no failures).",
        "DELETE": "Remove the webhook: nothing more is posted.",
    }
    input_serializer_class = WebhookIn
    http_method_names = ["get", "put", "delete", "head", "options"]

    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(WebhookOut(self.hook()).data)

    def put(self, request: Request, campaign_id: int) -> Response:
        data = WebhookIn(data=request.data)
        data.is_valid(raise_exception=True)
        hook = webhooks.webhook_save(campaign=self.campaign, url=data.validated_data["url"])
        return Response(WebhookOut(hook).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, campaign_id: int) -> Response:
        webhooks.webhook_delete(campaign=self.campaign)
        return Response(status=204)


class WebhookTest(WebhookView):
    """Post a test message to the webhook (queued); its result shows in the webhook's state
    once sent."""

    @extend_schema(request=None)
    def post(self, request: Request, campaign_id: int) -> Response:
        self.hook()
        webhooks.webhook_test(campaign=self.campaign)
        return Response(WebhookOut(self.hook()).data)


class WebhookEnable(WebhookView):
    """Turn the webhook back on after failures (its failures are forgotten)."""

    @extend_schema(request=None)
    def post(self, request: Request, campaign_id: int) -> Response:
        self.hook()
        return Response(WebhookOut(webhooks.webhook_enable(campaign=self.campaign)).data)
