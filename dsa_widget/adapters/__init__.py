"""Adapters to AI-research libraries (PettingZoo, OpenSpiel): each module imports its library
itself, so importing this package needs none of them."""
