"""Each message translated once per translation object (issue 15).

Django keeps the French catalogues of the installed apps apart (eight in this project: its merge
compares a plural formula's code with a function, never equal) and looks a message up in each in
turn. The project's own messages are written in French and are in none of them, so each of the
few hundred `{% translate %}` of a sheet or table page walked all eight catalogues and then the
fallback. A translation object's answers never change once it is built (a catalogue reloaded by
the development server is a new object), so it keeps them: the next lookup of the same message
is one dictionary read.

Only plain `str` messages are kept: a safe string's answer must stay its own (Django marks it
safe again after the lookup). The memo is bounded, in case some code translates free text.
"""

from __future__ import annotations

from django.utils.translation import trans_real

MEMO_SIZE = 8192
_MEMO = "_altherion_gettext_memo"


def install() -> None:
    """Give Django's translation objects their memo (once; called by the project's AppConfig)."""
    translation_class = trans_real.DjangoTranslation
    if getattr(translation_class.gettext, "memoized", False):
        return
    looked_up = translation_class.gettext

    def gettext(self, message):
        if type(message) is not str:
            return looked_up(self, message)
        memo = self.__dict__.get(_MEMO)
        if memo is None:
            memo = self.__dict__[_MEMO] = {}
        try:
            return memo[message]
        except KeyError:
            result = looked_up(self, message)
            if len(memo) < MEMO_SIZE:
                memo[message] = result
            return result

    gettext.memoized = True
    translation_class.gettext = gettext
