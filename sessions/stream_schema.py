"""The API's event stream in the OpenAPI description (a drf-spectacular post-processing hook):
an async Django view, not a DRF one, so it is described here by hand."""

from __future__ import annotations

DESCRIPTION = (
    "Le journal de la table en direct (Server-Sent Events), tel que vous pouvez le voir. "
    "Chaque nouvelle entrée arrive en `event: log` (`id:` est le curseur, `data:` l'entrée en "
    'JSON comme dans `log/`) ; `morale`, `combat`, `sheet` (`{"character", "version"}`) et '
    "`notifications` disent qu'il faut relire ces ressources ; `closed` que vous ne faites plus "
    "partie de la campagne. Reconnectez-vous avec `Last-Event-ID` (ou `?after=`) pour recevoir "
    "ce que vous avez manqué ; un commentaire `: ping` arrive toutes les 15 s."
)


def add_event_stream(result: dict, generator, request, public) -> dict:
    log = result["paths"].get("/api/campaigns/{campaign_id}/log/", {}).get("get", {})
    # Refused as the log is (401, 404, 405, 414, 429, 503), with the API's JSON errors.
    refusals = {code: answer for code, answer in log.get("responses", {}).items() if code >= "4"}
    result["paths"]["/api/campaigns/{campaign_id}/stream/"] = {
        "get": {
            "operationId": "campaigns_stream",
            "summary": "Le journal en direct (SSE)",
            "description": DESCRIPTION,
            "tags": ["Table"],  # beside the log it streams
            "parameters": [
                _integer("campaign_id", "path", "La campagne.", required=True),
                _integer("after", "query", "Le curseur à partir duquel reprendre."),
                _integer("character", "query", "Les entrées d'un seul personnage."),
                {
                    "name": "Last-Event-ID",
                    "in": "header",
                    "description": "Le dernier `id:` reçu (ce que le navigateur renvoie seul).",
                    "schema": {"type": "string"},
                },
            ],
            "security": [{"tokenAuth": []}, {"cookieAuth": []}],
            "responses": {
                "200": {
                    "description": "Un flux sans fin d'événements.",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}},
                },
                **refusals,
            },
        }
    }
    return result


def _integer(name: str, where: str, description: str, required: bool = False) -> dict:
    return {
        "name": name,
        "in": where,
        "required": required,
        "description": description,
        "schema": {"type": "integer", "minimum": 1},
    }
