"""The pages' template tags and filters: geartable (a card, names), push and vacation."""
