"""The base every API view with a list of rows shares: one serializer for the answer
(`output_serializer_class`) and the `rows()` hook each view defines (abstract here)."""

from rest_framework import generics


class RowsView(generics.GenericAPIView):
    output_serializer_class = None

    def get_serializer_class(self):
        return self.output_serializer_class

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return self.rows()

    def rows(self):
        """The rows the view reads (subclasses define it; the schema generator never calls it)."""
        raise NotImplementedError
