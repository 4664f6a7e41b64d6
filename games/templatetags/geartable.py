from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """`{{ links|get_item:card.id }}`: a dict lookup by a variable key."""
    return mapping.get(key) if mapping else None
