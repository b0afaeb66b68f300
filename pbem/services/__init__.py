"""Everything that changes stored state goes through these services; the web
pages, the JSON API, the mail robot and the command line only call them."""
