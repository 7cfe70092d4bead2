import django_filters
from django.utils.translation import gettext_lazy as _

from campaigns.api_filters import IdFilter
from sessions.models import PlaySession


class PlaySessionFilter(django_filters.FilterSet):
    arc = IdFilter(field_name="arc_id", help_text=_("Les séances de cet arc."))
    after = django_filters.DateFilter(
        field_name="scheduled_at",
        lookup_expr="date__gte",
        help_text=_("Séances à partir de ce jour (AAAA-MM-JJ)."),
    )
    before = django_filters.DateFilter(
        field_name="scheduled_at",
        lookup_expr="date__lte",
        help_text=_("Séances jusqu'à ce jour inclus (AAAA-MM-JJ)."),
    )

    class Meta:
        model = PlaySession
        fields = ["arc", "after", "before"]
