from django.contrib.admin.apps import AdminConfig


class GeartableAdminConfig(AdminConfig):
    default_site = "config.admin.GeartableAdminSite"
