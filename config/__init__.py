"""The site package: settings, the root, API, page and account URL modules, the Celery app,
WSGI/ASGI, and the API's error handling, authentication and pagination. It is the one
package that knows every app.

Importing the Celery app here makes `@shared_task` bind to it whenever Django starts.
"""

from .celery import app as celery_app

__all__ = ["celery_app"]
