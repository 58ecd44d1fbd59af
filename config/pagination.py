"""API pagination with bounds: a huge `limit` or `offset` is clamped instead of reaching the
database as a number it cannot hold."""

from rest_framework.pagination import LimitOffsetPagination

MAX_OFFSET = 10**9


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = 500

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_OFFSET)
