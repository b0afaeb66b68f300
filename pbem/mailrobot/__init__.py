"""The mail robot: pbem's side of play by email, over the Flask-free
``mail`` library.

* :mod:`.settings` -- the mail settings read from the app's config;
* :mod:`.inbox` -- the durable inbox: ``store`` (the listeners' callback),
  the shunt, retry;
* :mod:`.robot` -- one stored message: loop guards, the sender check, the
  first usable line, dispatch;
* :mod:`.commands` -- the ``COMMANDS`` table, command name -> its words, its
  help (the help answers are written from it) and its action;
* :mod:`.replies` -- queueing answers in the outbox, the once-a-day limit;
* :mod:`.outgoing` -- outbox rows as MIME messages, and the sender;
* :mod:`.given_up` -- outgoing mail given up: listed and retried;
* :mod:`.jobs` -- ``process_inbox``, ``drain_outbox``, ``poll_imap``: one pass
  each, for the scheduler and the ``pbem mail`` commands;
* :mod:`.listener` -- the listener ``pbem serve`` starts.
"""
