"""Screens and dialogs: each dialog a typed ModalScreen[T]."""
