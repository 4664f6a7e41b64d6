from django.contrib.admin.apps import AdminConfig


class GeartableAdminConfig(AdminConfig):
    default_site = "config.admin.GeartableAdminSite"

    def ready(self) -> None:
        super().ready()
        # The site's own deployment checks (manage.py check --deploy).
        from config import checks  # noqa: F401
