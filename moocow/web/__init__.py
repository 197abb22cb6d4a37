"""``moocow serve``: the assistant, games against the computer and tournament results in a browser.

Pages are rendered on the server from Jinja2 templates inside this package, with htmx (served
from ``static/``, no CDN) making taps quick; every page reads without JavaScript and has a JSON
twin. Views are thin: they call the same library functions as the CLI.
"""
