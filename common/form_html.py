"""`templates/_form.html` written as a string (issue 15): the sheet draws four forms with it in
one part, and the template's loop over fields was most of that part's time. The same markup,
byte for byte, the same escaping (tests/common/test_form_html.py renders both and compares)."""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe

from common.html_text import shown


def form_html(form) -> SafeString:
    """What `{% include "_form.html" with form=form %}` writes."""
    parts = ["\n"]
    errors = form.non_field_errors()
    if errors:
        paragraphs = "".join(f"<p>{shown(error)}</p>" for error in errors)
        parts.append(f'\n  <div class="errors" role="alert">{paragraphs}</div>\n')
    parts.append("\n")
    parts.extend(shown(field) for field in form.hidden_fields())
    parts.append("\n")
    parts.extend(_field(field) for field in form.visible_fields())
    parts.append("\n")
    return mark_safe("".join(parts))  # noqa: S308 (every value escaped, as the template does)


def _field(field) -> str:
    errors, help_text = field.errors, field.help_text
    checkbox = field.widget_type == "checkbox"
    if field.use_fieldset:
        described = ""
        if help_text or errors:
            ids = f"{shown(field.auto_id)}_helptext" if help_text else ""
            ids += f" {shown(field.auto_id)}_error" if errors else ""
            described = f' aria-describedby="{ids}"'
        opening = (
            f'\n  <fieldset class="field{" has-error" if errors else ""}"{described}>\n'
            f"    <legend>{shown(field.label)}</legend>\n  "
        )
        closing = "</fieldset>"
    else:
        opening = (
            f'\n  <div class="field{" field-checkbox" if checkbox else ""}'
            f'{" has-error" if errors else ""}">\n'
            f"    {f'{shown(field)} ' if checkbox else ''}"
            f'<label for="{shown(field.id_for_label)}">{shown(field.label)}</label>\n  '
        )
        closing = "</div>"
    widget = "" if checkbox else shown(field)
    helped = (
        f'<small class="help" id="{shown(field.auto_id)}_helptext">{help_text}</small>'
        if help_text
        else ""
    )
    shown_errors = ""
    if errors:
        paragraphs = "".join(f"<p>{shown(error)}</p>" for error in errors)
        shown_errors = f'<div class="error" id="{shown(field.auto_id)}_error">{paragraphs}</div>'
    return f"\n  {opening}\n    {widget}\n    {helped}\n    {shown_errors}\n  {closing}\n"
