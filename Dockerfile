FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
RUN pip install --no-cache-dir .
COPY . .
RUN DEBUG=0 HTTPS=0 SECRET_KEY=build-only python manage.py collectstatic --noinput
RUN useradd --create-home altherion && mkdir -p var/media && chown -R altherion var
USER altherion
# The web tier (bin/web, copied with the rest); docker-compose.yml runs the other services.
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
CMD ["bin/web"]
