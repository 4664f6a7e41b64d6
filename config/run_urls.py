"""`make run`'s paths (config/run_settings.py): the site's and the event streams', one process."""

from config import urls
from games.live import urls as stream_urls

urlpatterns = [*stream_urls.urlpatterns, *urls.urlpatterns]
handler400 = urls.handler400
handler403 = urls.handler403
handler404 = urls.handler404
handler500 = urls.handler500
