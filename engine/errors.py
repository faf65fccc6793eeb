"""Errors that carry a message meant for the person at the table or at the terminal."""


class InputError(ValueError):
    """Input from outside (a token, a file, a setting, an action) that cannot be accepted.

    The message names the problem and, where it helps, what to do instead. Command-line tools print it as
    one line and exit non-zero; the kiosk shows it to the dealer.
    """
