"""The campaign REST API: small views per resource, nested under the campaign they belong to.

Every view inside a campaign enters it through `campaigns.policy` before anything else: 404 for a
non-member, 403 for a player attempting a Conteur's action. Objects are looked up inside the
campaign (another campaign's ids are 404), writes go through `campaigns.services`, and errors
become JSON in `common.api_errors`. Input and output serializers are kept apart; `ApiSchema`
documents each with the error responses.
"""

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns import api_filters, selectors, services
from campaigns import serializers as s
from campaigns.models import Arc, Campaign, Invitation, Membership
from campaigns.policy import campaign_get_for_member, require_storyteller
from common.api_errors import ApiMetadata, ApiSchema
from common.api_views import RowsView
from common.parsers import JSONParser

READ_WRITE_DETAIL = ["get", "patch", "delete", "head", "options"]


def _validated(serializer_class, request: Request, *, partial: bool = False, **context) -> dict:
    serializer = serializer_class(data=request.data, partial=partial, context=context)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _enter_campaign(request: Request, kwargs: dict, *, storyteller: bool) -> Campaign:
    """The campaign for a member (policy): 404 for anyone else, 403 for a player when only
    the Conteur may do this."""
    if any(value > s.ID_MAX for value in kwargs.values()):
        raise Http404  # larger than any row id: the database would refuse the number itself
    campaign = campaign_get_for_member(user=request.user, pk=kwargs["campaign_id"])
    if storyteller:
        require_storyteller(campaign)
    return campaign


def _writes(request: Request) -> bool:
    return request.method not in SAFE_METHODS


# --- campaigns --------------------------------------------------------------------------------


def _campaign_row(*, user, campaign: Campaign) -> Membership:
    return selectors.memberships_for_user(user=user).get(campaign=campaign)


class CampaignList(generics.ListCreateAPIView):
    """Your campaigns (GET), or a new one of which you become the Conteur (POST)."""

    schema = ApiSchema()
    parser_classes = [JSONParser]
    api_tag = "Campagnes"
    api_descriptions = {
        "GET": "Your campaigns, with your role in each (filter by role or name).",
        "POST": "Create a campaign; you become its Conteur.",
    }
    queryset = Membership.objects.none()
    input_serializer_class = s.CampaignIn
    output_serializer_class = s.CampaignOut
    serializer_class = s.CampaignOut
    filterset_class = api_filters.CampaignFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return selectors.memberships_for_user(user=self.request.user)

    def create(self, request: Request, *args, **kwargs) -> Response:
        data = _validated(s.CampaignIn, request)
        campaign = services.campaign_create(creator=request.user, **data)
        row = _campaign_row(user=request.user, campaign=campaign)
        return Response(s.CampaignOut(row).data, status=201)


class CampaignDetail(generics.GenericAPIView):
    """A campaign (members read it); its settings are changed by the Conteur (PATCH)."""

    schema = ApiSchema()
    parser_classes = [JSONParser]
    api_tag = "Campagnes"
    api_descriptions = {
        "GET": "A campaign you are a member of, with your role.",
        "PATCH": "Change the campaign's settings (the Conteur): only the fields sent.",
    }
    queryset = Membership.objects.none()
    input_serializer_class = s.CampaignIn
    output_serializer_class = s.CampaignOut
    serializer_class = s.CampaignOut
    http_method_names = ["get", "patch", "head", "options"]

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.campaign = _enter_campaign(request, kwargs, storyteller=_writes(request))

    def get(self, request: Request, campaign_id: int) -> Response:
        row = _campaign_row(user=request.user, campaign=self.campaign)
        return Response(s.CampaignOut(row).data)

    def patch(self, request: Request, campaign_id: int) -> Response:
        data = _validated(s.CampaignIn, request, partial=True)
        services.campaign_update(campaign=self.campaign, **data)
        row = _campaign_row(user=request.user, campaign=self.campaign)
        return Response(s.CampaignOut(row).data)


class CampaignLeave(generics.GenericAPIView):
    """Leave the campaign (any member); the Conteur must first hand the role over (400)."""

    schema = ApiSchema()
    metadata_class = ApiMetadata  # no body: OPTIONS must not look for a serializer
    parser_classes = [JSONParser]
    api_tag = "Membres"
    queryset = Membership.objects.none()
    output_serializer_class = None

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.campaign = _enter_campaign(request, kwargs, storyteller=False)

    @extend_schema(responses={204: None})
    def post(self, request: Request, campaign_id: int) -> Response:
        services.membership_remove(membership=self.campaign.membership)
        return Response(status=204)


# --- what every view inside a campaign shares ------------------------------------------------


class InCampaignView(RowsView):
    """A view inside a campaign: it enters the campaign first, then reads `rows()`.

    Members read, unless `storyteller_reads`; only the Conteur writes. Subclasses set `queryset`
    (an empty one, which tells the schema the model), `rows()` (the campaign's rows, from a
    selector) and their two serializers.
    """

    schema = ApiSchema()
    parser_classes = [JSONParser]
    storyteller_reads = False
    input_serializer_class: type[serializers.Serializer] | None = None
    output_serializer_class: type[serializers.Serializer]

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.campaign = _enter_campaign(
            request, kwargs, storyteller=self.storyteller_reads or _writes(request)
        )

    def render(self, row, **kwargs) -> Response:
        """The row re-read through `rows()` (with what the list shows), as JSON."""
        return Response(self.output_serializer_class(self.rows().get(pk=row.pk)).data, **kwargs)


class CampaignScopedList(InCampaignView, generics.ListCreateAPIView):
    """List a campaign's rows; create one with `write()` (by default `services.entry_save`)."""

    def write(self, data: dict):
        return services.entry_save(entry=self.queryset.model(campaign=self.campaign, **data))

    def create(self, request: Request, *args, **kwargs) -> Response:
        data = _validated(self.input_serializer_class, request, campaign=self.campaign)
        return self.render(self.write(data), status=201)


class CampaignScopedDetail(InCampaignView, generics.RetrieveUpdateDestroyAPIView):
    """Read (members), change with PATCH and delete (the Conteur) one row of the campaign."""

    http_method_names = READ_WRITE_DETAIL

    def update(self, request: Request, *args, **kwargs) -> Response:
        entry = self.get_object()
        data = _validated(
            self.input_serializer_class, request, partial=True, campaign=self.campaign
        )
        for name, value in data.items():
            setattr(entry, name, value)
        self.save(entry)
        return self.render(entry)

    def save(self, entry) -> None:
        """Write the changed row (by default `services.entry_save`)."""
        services.entry_save(entry=entry)

    def perform_destroy(self, instance) -> None:
        services.entry_delete(entry=instance)


# --- members ------------------------------------------------------------------------------------


class MemberList(InCampaignView, generics.ListAPIView):
    """The campaign's members, the Conteur first."""

    api_tag = "Membres"
    queryset = Membership.objects.none()
    output_serializer_class = s.MembershipOut

    def rows(self):
        return selectors.members_for_campaign(campaign=self.campaign)


class MemberDetail(InCampaignView, generics.RetrieveDestroyAPIView):
    """A member (GET), or remove a player from the campaign (DELETE, the Conteur)."""

    api_tag = "Membres"
    api_descriptions = {
        "GET": "A member of the campaign and their role.",
        "DELETE": "Remove a player from the campaign (the Conteur).",
    }
    queryset = Membership.objects.none()
    output_serializer_class = s.MembershipOut

    def get_object(self) -> Membership:
        return selectors.membership_get(campaign=self.campaign, pk=self.kwargs["pk"])

    def perform_destroy(self, instance: Membership) -> None:
        services.membership_remove(membership=instance)


class MemberHandOver(InCampaignView):
    """Make this member the Conteur; you become a player. Returns the new Conteur."""

    api_tag = "Membres"
    queryset = Membership.objects.none()
    output_serializer_class = s.MembershipOut
    storyteller_reads = True

    def post(self, request: Request, campaign_id: int, pk: int) -> Response:
        target = selectors.membership_get(campaign=self.campaign, pk=pk)
        storyteller = services.storyteller_hand_over(campaign=self.campaign, to=target)
        return self.render(storyteller)

    def rows(self):
        return Membership.objects.filter(campaign=self.campaign).select_related("user")


# --- invitations --------------------------------------------------------------------------------


class InvitationList(CampaignScopedList):
    """The campaign's invitation links (the Conteur), or a new one (POST)."""

    api_tag = "Invitations"
    api_descriptions = {
        "GET": "The campaign's invitation links and their state (the Conteur).",
        "POST": "A new invitation link: valid `days` days, for `max_uses` players (the Conteur).",
    }
    storyteller_reads = True
    queryset = Invitation.objects.none()
    input_serializer_class = s.InvitationIn
    output_serializer_class = s.InvitationOut
    filterset_class = api_filters.InvitationFilter

    def rows(self):
        return selectors.invitations_for_campaign(campaign=self.campaign).select_related(
            "created_by"
        )

    def write(self, data: dict) -> Invitation:
        email = data.pop("email", "")
        invitation = services.invitation_create(
            campaign=self.campaign, by=self.request.user, **data
        )
        if email:
            invitation.mailed = services.invitation_mail(
                invitation=invitation,
                to=email,
                site=self.request.build_absolute_uri("/"),
                by=self.request.user,
            )
        return invitation

    def render(self, row, **kwargs) -> Response:
        response = super().render(row, **kwargs)
        response.data["mailed"] = getattr(row, "mailed", None)  # the re-read row never knows
        return response


class InvitationRevoke(InCampaignView):
    """Revoke an invitation link: nobody can join with it any more (revoking twice is fine)."""

    api_tag = "Invitations"
    queryset = Invitation.objects.none()
    output_serializer_class = s.InvitationOut
    storyteller_reads = True
    rows = InvitationList.rows

    def post(self, request: Request, campaign_id: int, pk: int) -> Response:
        invitation = selectors.invitation_get(campaign=self.campaign, pk=pk)
        return self.render(services.invitation_revoke(invitation=invitation))


class InvitationAccept(generics.GenericAPIView):
    """Join a campaign as a player with an invitation's token."""

    schema = ApiSchema()
    parser_classes = [JSONParser]
    api_tag = "Invitations"
    queryset = Invitation.objects.none()
    input_serializer_class = s.InvitationAcceptIn
    output_serializer_class = s.MembershipOut
    serializer_class = s.MembershipOut

    @extend_schema(responses={201: s.MembershipOut})
    def post(self, request: Request) -> Response:
        data = _validated(s.InvitationAcceptIn, request)
        # Refusals (expired, revoked, used up, already a member…) are 400 with the reason.
        membership = services.invitation_accept(token=data["token"], user=request.user)
        return Response(s.MembershipOut(membership).data, status=201)


# --- arcs and play sessions -----------------------------------------------------------------------


class ArcList(CampaignScopedList):
    """The campaign's narrative arcs, open ones first."""

    api_tag = "Arcs"
    api_descriptions = {
        "GET": "The campaign's narrative arcs, open ones first.",
        "POST": "Plan a new arc (the Conteur); it starts open.",
    }
    queryset = Arc.objects.none()
    input_serializer_class = s.ArcIn
    output_serializer_class = s.ArcOut
    filterset_class = api_filters.ArcFilter

    def rows(self):
        return selectors.arcs_for_campaign(campaign=self.campaign)


class ArcDetail(CampaignScopedDetail):
    api_tag = "Arcs"
    api_descriptions = {
        "GET": "An arc with its number of play sessions.",
        "PATCH": "Change an arc (the Conteur): only the fields sent; open or close it with its "
        "own actions.",
        "DELETE": "Delete an arc (the Conteur).",
    }
    queryset = Arc.objects.none()
    input_serializer_class = s.ArcIn
    output_serializer_class = s.ArcOut
    rows = ArcList.rows


class ArcClose(InCampaignView):
    """Close an open arc (its experience can then be awarded); closing twice changes nothing."""

    api_tag = "Arcs"
    queryset = Arc.objects.none()
    output_serializer_class = s.ArcOut
    storyteller_reads = True
    rows = ArcList.rows
    change = staticmethod(services.arc_close)

    def post(self, request: Request, campaign_id: int, pk: int) -> Response:
        arc = selectors.arc_get(campaign=self.campaign, pk=pk)
        return self.render(self.change(arc=arc))


class ArcReopen(ArcClose):
    """Reopen a closed arc."""

    change = staticmethod(services.arc_reopen)


# --- compendium ----------------------------------------------------------------------------------


COMPENDIUM_NOUNS = {
    "species": "species",
    "classes": "classes",
    "branches": "branches (of a class)",
    "abilities": "abilities",
    "assets": "assets",
    "flaws": "flaws",
    "spells": "spells",
}


def _compendium_views(slug: str, input_serializer, output_serializer, filterset):
    """The List and Detail views of one compendium section (`slug`, as in its URL).

    The six sections differ only by these; the views are named after the model
    (`SpeciesList`, `SpeciesDetail`…), and their schema is the one written-out classes would have.
    """
    model = selectors.compendium_kind_models()[slug]
    noun = COMPENDIUM_NOUNS[slug]

    def rows(self):
        return selectors.compendium_entries(campaign=self.campaign, slug=slug)

    attributes = {
        "api_tag": "Compendium",
        "queryset": model.objects.none(),
        "input_serializer_class": input_serializer,
        "output_serializer_class": output_serializer,
        "rows": rows,
    }
    list_descriptions = {
        "GET": f"The {noun} of the campaign's compendium, by name.",
        "POST": f"Add to the {noun} of the compendium (the Conteur).",
    }
    detail_descriptions = {
        "GET": f"One of the {noun} of the compendium.",
        "PATCH": f"Change one of the {noun} of the compendium (the Conteur): only the fields sent.",
        "DELETE": f"Delete one of the {noun} of the compendium (the Conteur).",
    }
    list_view = type(
        f"{model.__name__}List",
        (CampaignScopedList,),
        {**attributes, "filterset_class": filterset, "api_descriptions": list_descriptions},
    )
    detail_view = type(
        f"{model.__name__}Detail",
        (CampaignScopedDetail,),
        {**attributes, "api_descriptions": detail_descriptions},
    )
    return list_view, detail_view


# slug → (List view, Detail view), routed by `api_urls` in this order.
COMPENDIUM = {
    slug: _compendium_views(slug, input_serializer, output_serializer, filterset)
    for slug, input_serializer, output_serializer, filterset in (
        ("species", s.SpeciesIn, s.SpeciesOut, api_filters.SpeciesFilter),
        ("classes", s.CharacterClassIn, s.CharacterClassOut, api_filters.CharacterClassFilter),
        ("branches", s.BranchIn, s.BranchOut, api_filters.BranchFilter),
        ("abilities", s.AbilityIn, s.AbilityOut, api_filters.AbilityFilter),
        ("assets", s.AssetIn, s.AssetOut, api_filters.AssetFilter),
        ("flaws", s.FlawIn, s.FlawOut, api_filters.FlawFilter),
        ("spells", s.SpellEntryIn, s.SpellEntryOut, api_filters.SpellEntryFilter),
    )
}
