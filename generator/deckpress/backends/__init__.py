"""Backends draw Faces; they never see deck fields."""
