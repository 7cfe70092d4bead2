"""The world's REST API, under /api/campaigns/<campaign_id>/world/: pages (with their links and
backlinks, history and restore), the member's note, search, and handouts.

Every view enters through `world.visibility` (or `campaigns.policy` for the campaign): a page the
member may not see is a 404 like a page that does not exist, and what is shown of a page is what
`visible_body` leaves. Writes go through `world.services` and `world.handouts`; errors become
JSON in `common.api_errors`.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.models import Campaign
from campaigns.policy import campaign_get_for_member, is_storyteller, require_storyteller
from common.api_errors import ApiMetadata, ApiSchema
from common.parsers import JSONParser
from world import api_filters, handouts, links, selectors, services
from world import serializers as s
from world.models import Handout, Page, PageRevision
from world.search import search
from world.visibility import page_get_for_member, pages_for, visible_body

TAG = "Monde"


def _validated(serializer_class, request: Request, *, partial: bool = False) -> dict:
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _checked_ids(kwargs: dict) -> None:
    if any(value > s.ID_MAX for value in kwargs.values()):
        raise Http404  # larger than any row id: the database would refuse the number itself


class WorldView(generics.GenericAPIView):
    """A view inside a campaign's world: it enters the campaign (404 for a non-member)."""

    schema = ApiSchema()
    parser_classes = [JSONParser]
    api_tag = TAG
    queryset = Page.objects.none()
    input_serializer_class = None
    output_serializer_class = s.PageOut
    member_writes = False  # only the Conteur writes, but for a member's own note

    def get_serializer_class(self):
        return self.output_serializer_class

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        _checked_ids(kwargs)
        self.campaign: Campaign = campaign_get_for_member(
            user=request.user, pk=kwargs["campaign_id"]
        )
        self.storyteller = is_storyteller(self.campaign)
        if request.method not in SAFE_METHODS and not self.member_writes:
            require_storyteller(self.campaign)  # 403 before any page is looked up

    def page(self, pk: int) -> Page:
        return page_get_for_member(user=self.request.user, campaign_id=self.campaign.pk, pk=pk)

    def page_data(self, page: Page) -> dict:
        """The page as this member may see it, with its backlinks."""
        user = self.request.user
        context = {
            "body": visible_body(page=page, user=user),
            "storyteller": self.storyteller,
            "backlinks": links.backlinks(page=page, user=user),
        }
        return s.PageOut(page, context=context).data


# --- pages ------------------------------------------------------------------------------------


class PageList(WorldView, generics.ListAPIView):
    api_descriptions = {
        "GET": "The world's pages you may see (filter by `kind` and `tag`), titles in order.",
        "POST": "Write a new page (the Conteur). Images are uploaded on the site's page form.",
    }
    input_serializer_class = s.PageIn
    output_serializer_class = s.PageSummaryOut
    filterset_class = api_filters.PageFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return pages_for(user=self.request.user, campaign=self.campaign).defer("body")

    def get(self, request: Request, *args, **kwargs) -> Response:
        return self.list(request, *args, **kwargs)

    @extend_schema(responses={201: s.PageOut})
    def post(self, request: Request, campaign_id: int) -> Response:
        data = _validated(s.PageIn, request)
        page = services.page_create(campaign=self.campaign, by=request.user, **data)
        return Response(self.page_data(self.page(page.pk)), status=201)


class PageDetail(WorldView):
    api_descriptions = {
        "GET": "A page as you may see it: its text without the secret blocks you may not read, "
        "and the pages and séance journals citing it (backlinks).",
        "PATCH": "Change a page (the Conteur), sending the `version` you read: a stale version "
        "is refused with 409 and the current page in `current`.",
        "DELETE": "Delete a page with its history and notes (the Conteur).",
    }
    input_serializer_class = s.PagePatchIn
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def get(self, request: Request, campaign_id: int, pk: int) -> Response:
        return Response(self.page_data(self.page(pk)))

    @extend_schema(responses={200: s.PageOut, 409: s.PageConflictOut})
    def patch(self, request: Request, campaign_id: int, pk: int) -> Response:
        page = self.page(pk)
        data = dict(_validated(s.PagePatchIn, request, partial=True))
        version = data.pop("version", None)
        if version is None:
            return Response(
                {"detail": _("Envoyez la version lue (`version`)."), "errors": {}}, status=428
            )
        try:
            page = services.page_update(page=page, by=request.user, version=version, **data)
        except services.StalePage as stale:
            current = self.page(stale.page.pk)
            body = {"detail": stale.messages[0], "errors": {}, "current": self.page_data(current)}
            return Response(body, status=409)
        return Response(self.page_data(self.page(page.pk)))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, campaign_id: int, pk: int) -> Response:
        services.page_delete(page=self.page(pk), by=request.user)
        return Response(status=204)


class PageHistory(WorldView, generics.ListAPIView):
    api_descriptions = {"GET": "Every saved version of a page, newest first (the Conteur)."}
    storyteller_reads = True
    queryset = PageRevision.objects.none()
    output_serializer_class = s.RevisionOut

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        page = self.page(self.kwargs["pk"])
        require_storyteller(self.campaign)  # old versions hold every secret the page had
        return selectors.page_history(page=page)

    def get(self, request: Request, *args, **kwargs) -> Response:
        return self.list(request, *args, **kwargs)


class PageRestore(WorldView):
    api_descriptions = {
        "POST": "Set a page back to one of its versions, as a new version (the Conteur); "
        "`version` is the page's version you read (409 when stale)."
    }
    input_serializer_class = s.RestoreIn

    @extend_schema(responses={200: s.PageOut, 409: s.PageConflictOut})
    def post(self, request: Request, campaign_id: int, pk: int) -> Response:
        page = self.page(pk)
        data = _validated(s.RestoreIn, request)
        revision = page.revisions.filter(pk=data["revision"]).first()
        if revision is None:
            # The page exists: an id of none of its versions is refused like DRF's related
            # fields refuse an id of no row (400, `does_not_exist`), not as a missing page.
            message = _("Cette page n'a pas de version portant cet identifiant.")
            raise ValidationError({"revision": [message]}, code="does_not_exist")
        try:
            page = services.page_restore(
                page=page, by=request.user, revision=revision, version=data["version"]
            )
        except services.StalePage as stale:
            current = self.page(stale.page.pk)
            body = {"detail": stale.messages[0], "errors": {}, "current": self.page_data(current)}
            return Response(body, status=409)
        return Response(self.page_data(self.page(page.pk)))


class PageLinks(WorldView):
    api_descriptions = {
        "GET": "The `[[links]]` of a page's text as you may see it, each resolved to a page "
        "you may see (null otherwise: missing and hidden read the same), and its backlinks."
    }
    output_serializer_class = s.LinksOut

    def get(self, request: Request, campaign_id: int, pk: int) -> Response:
        page = self.page(pk)
        user = request.user
        visible = {
            links.title_key(title): page_pk
            for page_pk, title in pages_for(user=user, campaign=self.campaign).values_list(
                "pk", "title"
            )
        }
        outgoing, seen = [], set()
        for found in links.LINK.finditer(visible_body(page=page, user=user)):
            title = " ".join(found.group("title").split())
            if links.title_key(title) in seen:
                continue
            seen.add(links.title_key(title))
            outgoing.append({"title": title, "page": visible.get(links.title_key(title))})
        data = {"outgoing": outgoing, "backlinks": links.backlinks(page=page, user=user)}
        return Response(s.LinksOut(data).data)


class PageNoteView(WorldView):
    api_descriptions = {
        "GET": "Your own note on a page you may see (nobody else reads it).",
        "PUT": "Write your note on a page you may see.",
    }
    input_serializer_class = s.NoteInOut
    output_serializer_class = s.NoteInOut
    member_writes = True
    http_method_names = ["get", "put", "head", "options"]

    def get(self, request: Request, campaign_id: int, pk: int) -> Response:
        note = selectors.note_for(page=self.page(pk), user=request.user)
        return Response({"text": note.text if note else ""})

    def put(self, request: Request, campaign_id: int, pk: int) -> Response:
        page = self.page(pk)
        data = _validated(s.NoteInOut, request)
        note = services.note_save(page=page, user=request.user, text=data["text"])
        return Response({"text": note.text})


# --- search -----------------------------------------------------------------------------------


class WorldSearch(WorldView):
    api_descriptions = {
        "GET": "Search the pages, the compendium and the séance journals you may see "
        "(`q`; French full-text search on PostgreSQL). A hidden page or a secret block you may "
        "not read never matches."
    }
    output_serializer_class = s.HitOut
    validates_query = True
    pagination_class = None  # at most PER_KIND hits of each kind: one short list

    @extend_schema(parameters=[s.SearchIn], responses={200: s.HitOut(many=True)})
    def get(self, request: Request, campaign_id: int) -> Response:
        query = s.SearchIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        hits = search(user=request.user, campaign=self.campaign, q=query.validated_data["q"])
        return Response(s.HitOut(hits, many=True).data)


# --- handouts ---------------------------------------------------------------------------------


class HandoutList(WorldView, generics.ListAPIView):
    api_descriptions = {
        "GET": "The handouts you received (all the campaign's for the Conteur), newest first.",
        "POST": "Give a page, its image or one of its secret blocks (`secret_key`) to players "
        "(the Conteur): a copy as it is now, announced at once on their streams (`handouts`).",
    }
    queryset = Handout.objects.none()
    input_serializer_class = s.HandoutIn
    output_serializer_class = s.HandoutOut

    def context(self) -> dict:
        return {"storyteller": self.storyteller, "user_id": self.request.user.pk}

    def get_serializer_context(self) -> dict:
        context = super().get_serializer_context()
        if not getattr(self, "swagger_fake_view", False):
            context.update(self.context())
        return context

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        rows = handouts.handouts_for(user=self.request.user, campaign=self.campaign)
        return rows.prefetch_related("recipients")

    def get(self, request: Request, *args, **kwargs) -> Response:
        return self.list(request, *args, **kwargs)

    @extend_schema(responses={201: s.HandoutOut})
    def post(self, request: Request, campaign_id: int) -> Response:
        data = _validated(s.HandoutIn, request)
        page = Page.objects.filter(campaign_id=self.campaign.pk, pk=data["page"]).first()
        if page is None:
            raise Http404
        handout = handouts.handout_give(
            page=page,
            by=request.user,
            kind=data["kind"],
            recipients=data["recipients"],
            secret_key=data.get("secret_key", ""),
        )
        return Response(s.HandoutOut(handout, context=self.context()).data, status=201)


class HandoutDetail(WorldView):
    api_descriptions = {"GET": "A handout given to you (any for the Conteur)."}
    metadata_class = ApiMetadata
    queryset = Handout.objects.none()
    output_serializer_class = s.HandoutOut

    def get(self, request: Request, campaign_id: int, pk: int) -> Response:
        handout = handouts.handout_get_for_member(
            user=request.user, campaign_id=self.campaign.pk, pk=pk
        )
        context = {"storyteller": self.storyteller, "user_id": request.user.pk}
        return Response(s.HandoutOut(handout, context=context).data)
