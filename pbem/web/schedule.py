"""The schedule pages: settings (reminder hours, daily digest, vacation,
calendar feed), and the private iCalendar feed at ``/calendar/<token>.ics``."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.db import get_session
from pbem.i18n import gettext
from pbem.services import accounts, digest, ical, vacations
from pbem.services.clock.deadlines import check_bank_cap
from pbem.services.errors import ServiceError
from pbem.services.schedule import schedule_data
from pbem.web.auth import sign_in_required, signed_in_player

bp = Blueprint("schedule", __name__)


def _page(error: str | None = None, status: int = 200, form: dict[str, Any] | None = None) -> ResponseReturnValue:
    data = schedule_data(get_session(), signed_in_player())
    form = form or {"reminders": ",".join(map(str, data["reminder_hours"]))}
    return render_template("settings.html", data=data, form=form, error=error), status


@bp.get("/settings")
@sign_in_required
def settings() -> ResponseReturnValue:
    return _page()


@bp.post("/settings")
@sign_in_required
def save() -> ResponseReturnValue:
    reminders = request.form.get("reminders", "")
    try:
        digest.set_preferences(get_session(), signed_in_player(), reminder_hours=reminders,
                               digest=request.form.get("digest") == "on")
    except ServiceError as failure:
        return _page(failure.message, failure.status, {"reminders": reminders})
    flash(gettext("Settings saved."))
    return redirect(url_for("schedule.settings"))


@bp.post("/settings/language")
@sign_in_required
def language() -> ResponseReturnValue:
    accounts.set_language(get_session(), signed_in_player(), request.form.get("language", ""))
    flash(gettext("Language saved."))
    return redirect(url_for("schedule.settings"))


@bp.post("/settings/vacation")
@sign_in_required
def vacation() -> ResponseReturnValue:
    try:
        done = vacations.take(get_session(), signed_in_player(), request.form.get("days", "").strip())
    except ServiceError as failure:
        return _page(failure.message, failure.status)
    if done.current:
        flash(gettext("You are on vacation until %(date)s UTC; your clocks are stopped.",
                      date=f"{done.current.ends_at:%Y-%m-%d %H:%M}"))
    else:
        flash(gettext("Your vacation is over; your clocks run again."))
    return redirect(url_for("schedule.settings"))


@bp.post("/settings/calendar")
@sign_in_required
def new_calendar_token() -> ResponseReturnValue:
    ical.token_for(get_session(), signed_in_player(), reset=True)
    flash(gettext("Your calendar has a new address; the old one no longer works."))
    return redirect(url_for("schedule.settings"))


@bp.get("/calendar/<token>.ics")
def calendar(token: str) -> ResponseReturnValue:
    session = get_session()
    player = ical.player_for_token(session, token)
    if player is None:
        abort(404, gettext("there is no calendar at this address; copy its address again from your settings page"))
    return Response(ical.feed(session, player), mimetype="text/calendar",
                    headers={"Cache-Control": "private, max-age=300"})


# -- the new-game form's time control fields ---------------------------------
_BANK_FIELDS = ("bank_hours", "bank_increment_hours", "bank_cap_hours")
_UNITS = ("hours", "days")
_WHOLE = re.compile(r"[0-9]{1,9}")


def time_control_form(form: Any) -> dict[str, Any]:
    """The time control fields of the new-game form, as entered (defaults: days, claim, weekends count)."""
    values = {"unit": str(form.get("unit") or "days").strip(),
              "on_timeout": form.get("on_timeout", "claim"),
              "weekends": form.get("weekends") == "on" if form else True}
    for name in _BANK_FIELDS:
        values[name] = str(form.get(name, "")).strip()
    return values


def time_control_args(form: dict[str, Any], amount: int | None) -> dict[str, Any]:
    """``create_game`` arguments from the form; ``BadInput`` (a ServiceError) names a bad field."""
    from pbem.services.errors import BadInput

    if form["unit"] not in _UNITS:
        raise BadInput(gettext('the time per turn is counted in hours or days, not %(value)s', value=repr(form['unit'][:20])))
    if amount is None:
        given = [name.replace("_", " ") for name in _BANK_FIELDS if form[name]]
        if given:
            raise BadInput(gettext('the %(given)s need a time per turn; give one, or empty the bank fields for a game without a clock', given=' and '.join(given)))
        return {"hours_per_turn": None}
    most = 365 if form["unit"] == "days" else 24 * 365
    if not 1 <= amount <= most:
        raise BadInput(gettext('the time per turn is from 1 to %(most)s %(form)s, or empty for no limit; not %(amount)s', most=most, form=form['unit'], amount=amount))
    control: dict[str, Any] = {"on_timeout": form["on_timeout"], "weekends": form["weekends"]}
    control["days_per_turn" if form["unit"] == "days" else "hours_per_turn"] = amount
    for name in _BANK_FIELDS:
        text = form[name]
        if text:
            if not _WHOLE.fullmatch(text):
                raise BadInput(gettext('%(replace)s is a whole number of hours, such as 24, or empty; not %(text)s', replace=name.replace('_', ' '), text=repr(text[:20])))
            control[name] = int(text)
    check_bank_cap(control)
    return {"time_control": control}
