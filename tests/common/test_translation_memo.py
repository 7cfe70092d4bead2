"""Translations looked up once per translation object (common/translation_memo.py): the same
answers as Django's catalogues give, safe strings kept safe, a new object starting afresh."""

from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, trans_real

from common import translation_memo


def looked_up(monkeypatch) -> list[str]:
    """The messages looked up in the catalogues from now on."""
    seen = []
    get = trans_real.TranslationCatalog.get

    def counted(self, key, default=None):
        seen.append(key)
        return get(self, key, default)

    monkeypatch.setattr(trans_real.TranslationCatalog, "get", counted)
    return seen


def test_answers_are_the_catalogues(monkeypatch):
    with translation.override("fr"):
        assert gettext("This field is required.") == "Ce champ est obligatoire."
        assert gettext("Compétences du personnage") == "Compétences du personnage"
        seen = looked_up(monkeypatch)
        assert gettext("This field is required.") == "Ce champ est obligatoire."
        assert gettext("Compétences du personnage") == "Compétences du personnage"
    assert seen == []  # both answered from the memo


def test_a_safe_message_stays_safe_and_a_plain_one_plain():
    with translation.override("fr"):
        assert isinstance(gettext(mark_safe("<b>Gras</b>")), SafeString)
        assert not isinstance(gettext("<b>Gras</b>"), SafeString)
        assert isinstance(gettext(mark_safe("<b>Gras</b>")), SafeString)
    # Asked directly, a missing safe message comes back as it is: it must not be kept as the
    # answer to the same text, unsafe.
    fresh = trans_real.DjangoTranslation("fr")
    assert isinstance(fresh.gettext(mark_safe("<i>Penché</i>")), SafeString)
    assert not isinstance(fresh.gettext("<i>Penché</i>"), SafeString)


def test_a_new_translation_object_looks_up_again(monkeypatch):
    gettext_of = trans_real.DjangoTranslation("fr").gettext
    assert gettext_of("This field is required.") == "Ce champ est obligatoire."
    seen = looked_up(monkeypatch)
    assert trans_real.DjangoTranslation("fr").gettext("This field is required.") == (
        "Ce champ est obligatoire."
    )
    assert "This field is required." in seen


def test_the_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(translation_memo, "MEMO_SIZE", 1)
    fresh = trans_real.DjangoTranslation("fr")
    fresh.gettext("Un")
    fresh.gettext("Deux")
    seen = looked_up(monkeypatch)
    fresh.gettext("Un")
    fresh.gettext("Deux")
    assert "Deux" in seen and "Un" not in seen
