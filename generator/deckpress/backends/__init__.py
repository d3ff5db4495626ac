"""Backends draw faces, and imposition's pages and furniture; they never see deck fields."""
