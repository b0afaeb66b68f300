"""The pbem server: Flask app, models, services, web pages, JSON API,
scheduler and command line."""
