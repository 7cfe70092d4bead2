"""Query-string filters of the world API's lists (django-filter, the default filter backend)."""

import django_filters
from django.utils.translation import gettext_lazy as _

from world.models import Page, PageKind


class PageFilter(django_filters.FilterSet):
    """Filters `visibility.pages_for`: an unknown `kind` is refused (400), as the schema's enum
    says."""

    kind = django_filters.ChoiceFilter(choices=PageKind.choices, help_text=_("Seulement ce genre."))
    tag = django_filters.CharFilter(
        method="filter_tag", help_text=_("Seulement les pages portant cette étiquette.")
    )

    class Meta:
        model = Page
        fields = ["kind", "tag"]

    def filter_tag(self, queryset, name, value):
        # `tags` is a JSON list: the element is looked for in Python (SQLite has no JSON
        # `contains`), and the rows kept by id so the answer stays a queryset.
        tag = value.strip().lower()
        if not tag:
            return queryset
        ids = [pk for pk, tags in queryset.values_list("pk", "tags") if tag in (tags or [])]
        return queryset.filter(pk__in=ids)
