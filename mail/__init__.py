"""Email in and out: parsing, composing, SMTP/LMTP/IMAP.  No Flask."""
