"""The league app: leagues, seasons, events, players, registrations, deck submissions and
league points. The site itself (settings, URLs, the Celery app) lives in `config/`."""
