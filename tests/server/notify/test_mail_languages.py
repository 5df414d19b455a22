"""Mail in the player's language (issue 30), through a real SMTP relay (aiosmtpd) on SQLite
and PostgreSQL: a whole game played in French by mail, turn mails in Norwegian and Italian,
the reply words of every language, the answers, codes, invitations and reminders; English
as it always was (``Content-Language: en``; the other mail tests pin its words)."""

from __future__ import annotations

import re
import smtplib
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
from flask import Flask
from flask.testing import FlaskClient

from mathable.core.replies import REPLY_WORDS, reply_word
from mathable.core.ruleset import ruleset
from mathable_i18n import LANGUAGES, say, speaking
from mathable_server.mailin.inbound import TAKEN, free_text
from mathable_server.mailin.smtpd import controller
from mathable_server.notify.mail.compose import (
    MailContext,
    digest_mail,
    reminder_mail,
    written_words,
)
from mathable_server.notify.mail.games import mail_time
from tests.server.helpers import Account, Table, register, snapshot
from tests.server.live import free_port
from tests.server.mailbox import Mailbox, text_of
from tests.server.mailing import (
    ADA_MAIL,
    BOB_MAIL,
    BOB_TURN,
    deliver,
    inbox,
    mailing_app,
    play_ada_turn,
    reply,
    room,
)
from tests.server.summy_games import summy_game

PUBLIC = "https://play.example"
MOMENT = 1_790_000_000_000  # Mon 21 Sep 2026 14:13 UTC


def speaks(client: FlaskClient, who: Account, lang: str) -> None:
    chosen = client.patch("/v1/me", json={"language": lang}, headers=who.auth)
    assert chosen.status_code == 200 and chosen.json["language"] == lang, chosen.json


def verified(client: FlaskClient, app: Flask, mailbox: Mailbox, who: Account, address: str,
             code_words: str = "code is") -> EmailMessage:  # fmt: skip
    """Set and verify ``address``; the code mail (its code read after ``code_words``)."""
    put = client.put("/v1/me/email", json={"address": address}, headers=who.auth)
    assert put.status_code == 202, put.json
    deliver(app)
    mail = mailbox.to(address)[-1]
    found = re.search(rf"{code_words} (\d{{6}})", text_of(mail))
    assert found is not None, text_of(mail)
    done = client.post("/v1/me/email/verify", json={"code": found[1]}, headers=who.auth)
    assert done.status_code == 200, done.json
    return mail


def next_mail(mailbox: Mailbox, address: str, seen: int,
              found: Callable[[EmailMessage], bool] = lambda m: True) -> EmailMessage:  # fmt: skip
    """The first mail to ``address`` after the ``seen`` first that ``found`` accepts."""
    return mailbox.wait_for(
        lambda m: m["To"] == address and m in mailbox.to(address)[seen:] and found(m)
    )


def version(table: Table) -> int:
    found: int = snapshot(table.client, table.id)[0]["version"]
    return found


def passes(table: Table, who: Account) -> None:
    table.ok(who, version=version(table), type="pass")


@pytest.fixture
def lingual_app(database_url: str, mailbox: Mailbox) -> Flask:
    return mailing_app(database_url, mailbox, public_url=PUBLIC)


@pytest.fixture
def french_table(lingual_app: Flask, mailbox: Mailbox) -> Table:
    """The worked-example game: ada (English, to move) and bob, who reads French."""
    client = lingual_app.test_client()
    table = Table(client)
    verified(client, lingual_app, mailbox, table.ada, ADA_MAIL)
    speaks(client, table.bob, "fr")
    code = verified(client, lingual_app, mailbox, table.bob, BOB_MAIL, "code Mathable est")
    assert code["Content-Language"] == "fr"
    assert code["Subject"] == "[mathable] Votre code pour confirmer cette adresse"
    return table


def test_a_whole_game_played_in_french_by_mail(
    lingual_app: Flask, mailbox: Mailbox, french_table: Table
) -> None:
    """bob's replies go through the server's SMTP listener (``mailin.smtpd``)."""
    table, game = french_table, french_table.id
    port = free_port()
    listener = controller(inbox(lingual_app), "127.0.0.1", port)
    listener.start()
    try:
        _play_in_french(lingual_app, mailbox, table, game, port)
    finally:
        listener.stop()


def _play_in_french(app: Flask, mailbox: Mailbox, table: Table, game: str, port: int) -> None:
    def send(mail: EmailMessage, body: str) -> None:
        raw = reply(mail, body).replace(b"\n", b"\r\n")  # SMTP lines end in CRLF
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
            smtp.sendmail(BOB_MAIL, [str(mail["Reply-To"])], raw)

    play_ada_turn(table)
    deliver(app)
    first = next_mail(mailbox, BOB_MAIL, 1)
    assert first["Subject"] == f"[mathable] À vous de jouer dans Mathable {game} contre ada"
    assert first["Content-Language"] == "fr"
    text = text_of(first)
    assert text.startswith(f"C'est à vous de jouer dans la partie {game} contre ada.\n")
    assert "Dernier tour : ada a joué I8=12 H6=8 G9=2 F7=1 J8=16 pour 39 points.\n" in text
    assert "Scores : ada 39, bob 0\n" in text and "Votre chevalet : " in text
    assert "Jetons dans le sac : " in text
    assert "    échanger 3 7 12 " in text and "    passer\n" in text and "abandonner" in text
    assert f"Jouez dans votre navigateur :\n    {PUBLIC}/play/{game}" in text
    for english in ("Your rack", "It is your turn", "Last turn", "Scores:", "reply to this"):
        assert english not in text

    # bob's move by mail: played, and answered in French.
    send(first, BOB_TURN)
    deliver(app)
    answer = next_mail(mailbox, BOB_MAIL, 2)
    assert str(answer["Subject"]).startswith("Re: ") and answer["Content-Language"] == "fr"
    assert f"Joué : {BOB_TURN} pour 71 points (dont un bonus de 50)\n" in text_of(answer)
    assert "Scores : ada 39, bob 121" in text_of(answer)
    # ada reads English, as she always did.
    adas = next_mail(mailbox, ADA_MAIL, 1)
    assert adas["Content-Language"] == "en"
    assert adas["Subject"] == f"[mathable] Your turn in Mathable {game} vs bob"
    assert "Last turn: bob played F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7 for 71 points " \
        "(with a 50 bonus).\n" in text_of(adas)  # fmt: skip

    # A reply that holds no move: nothing is played, and bob is told why in French.
    passes(table, table.ada)
    deliver(app)
    second = next_mail(mailbox, BOB_MAIL, 3)
    assert "Dernier tour : ada a passé son tour.\n" in text_of(second)
    before = snapshot(table.client, game)
    send(second, "Bonjour tout le monde")
    assert snapshot(table.client, game) == before
    deliver(app)
    refused = next_mail(mailbox, BOB_MAIL, 4)
    assert text_of(refused).startswith("Rien n'a été joué : ")
    assert "    passer\n" in text_of(refused)  # how to reply, in French

    # An exchange in French words (with its accent, a capital), then a pass.
    rack = re.search(r"Votre chevalet : ([\d ]+)\n", text_of(second))
    assert rack is not None
    tile = rack[1].split()[0]
    send(second, f"Échanger {tile}")
    deliver(app)
    exchanged = next_mail(mailbox, BOB_MAIL, 5)
    assert f"Joué : Échanger {tile}\n" in text_of(exchanged)
    assert snapshot(table.client, game, table.bob)[0]["seats"][1]["score"] == 121
    adas = next_mail(mailbox, ADA_MAIL, 2)
    assert "Last turn: bob exchanged 1 tile.\n" in text_of(adas)
    passes(table, table.ada)
    deliver(app)
    third = next_mail(mailbox, BOB_MAIL, 6)
    send(third, "passer")
    now = app.extensions["mathable"].games.now
    room(app).deliverer(lambda: now() + 60_000).drain()
    passed = next_mail(mailbox, BOB_MAIL, 7)
    assert "Joué : passer\n" in text_of(passed)

    # Every seat passed or exchanged twice: the game is over, told in each one's language.
    over = next_mail(mailbox, BOB_MAIL, 7, lambda m: "Partie terminée" in str(m["Subject"]))
    assert over["Subject"] == f"[mathable] Partie terminée : Mathable {game} contre ada"
    assert over["Content-Language"] == "fr"
    assert re.search(rf"La partie {game} est terminée \(.+\) : bob a gagné\.", text_of(over))
    assert "Une revanche (même jeu et même pendule" in text_of(over)
    adas_over = next_mail(mailbox, ADA_MAIL, 2, lambda m: "Game over" in str(m["Subject"]))
    assert f"Game {game} is over (no placements): bob won.\n" in text_of(adas_over)
    assert snapshot(table.client, game)[0]["status"] == "ended"


WORDS = {
    "nb": {
        "subject": "[mathable] Din tur i Mathable {game} mot ada",
        "lines": [
            "Det er din tur i parti {game} mot ada.\n",
            "Siste tur: ada spilte I8=12 H6=8 G9=2 F7=1 J8=16 for 39 poeng.\n",
            "Poeng: ada 39, bob 0\n",
            "Brikkeholderen din: ",
            "Brikker i posen: ",
            "    bytt 3 7 12 ",
            "    stå over\n    gi opp\n",
            "Spill i nettleseren:\n",
        ],
        "pass": "stå over",
        "deadline": "Frist",
        "month": r" (jan|feb|mar|apr|mai|jun|jul|aug|sep|okt|nov|des)\. ",
        "played": "Spilt: stå over\n",
    },
    "it": {
        "subject": "[mathable] Tocca a te in Mathable {game} contro ada",
        "lines": [
            "Tocca a te nella partita {game} contro ada.\n",
            "Ultimo turno: ada ha giocato I8=12 H6=8 G9=2 F7=1 J8=16 per 39 punti.\n",
            "Punteggi: ada 39, bob 0\n",
            "Il tuo leggio: ",
            "Tessere nel sacchetto: ",
            "    cambio 3 7 12 ",
            "    passo\n    abbandono\n",
            "Gioca nel browser:\n",
        ],
        "pass": "Passo",
        "deadline": "Scadenza",
        "month": r" (gen|feb|mar|apr|mag|giu|lug|ago|set|ott|nov|dic) ",
        "played": "Giocato: Passo\n",
    },
}


@pytest.mark.parametrize("lang", ["nb", "it"])
def test_a_turn_mail_in_norwegian_and_in_italian_and_a_reply_in_its_words(
    lingual_app: Flask, mailbox: Mailbox, lang: str
) -> None:
    client = lingual_app.test_client()
    table = Table(client, clock={"per_move": 3 * 86400})
    verified(client, lingual_app, mailbox, table.ada, ADA_MAIL)
    verified(client, lingual_app, mailbox, table.bob, BOB_MAIL)
    speaks(client, table.bob, lang)
    zone = client.patch("/v1/me", json={"time_zone": "Europe/Rome"}, headers=table.bob.auth)
    assert zone.status_code == 200, zone.json
    play_ada_turn(table)
    deliver(lingual_app)
    mail = next_mail(mailbox, BOB_MAIL, 1)
    words = WORDS[lang]
    assert mail["Subject"] == str(words["subject"]).format(game=table.id)
    assert mail["Content-Language"] == lang
    text = text_of(mail)
    for line in words["lines"]:
        assert line.format(game=table.id) in text, (line, text)
    # The deadline in bob's time zone, written as his language writes dates.
    deadline = snapshot(client, table.id)[0]["clock"]["deadline"]
    due = int(datetime.strptime(deadline, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp())
    with speaking(lang):
        shown = mail_time(due * 1000, "Europe/Rome")
    assert f"{words['deadline']}: {shown}\n" in text and shown.endswith(" (Europe/Rome)")
    assert re.search(str(words["month"]), shown), shown
    assert "Your rack" not in text and "Last turn" not in text
    assert inbox(lingual_app).receive(reply(mail, str(words["pass"]))).code == TAKEN
    deliver(lingual_app)
    answer = next_mail(mailbox, BOB_MAIL, 2, lambda m: str(m["Subject"]).startswith("Re:"))
    assert answer["Content-Language"] == lang
    assert str(words["played"]) in text_of(answer)
    assert snapshot(client, table.id)[0]["turn"]["seat"] == 0


def test_an_english_mail_says_so_and_an_unchosen_language_is_english(
    lingual_app: Flask, mailbox: Mailbox
) -> None:
    client = lingual_app.test_client()
    table = Table(client)
    verified(client, lingual_app, mailbox, table.bob, BOB_MAIL)
    speaks(client, table.bob, "fr")
    unset = client.patch("/v1/me", json={"language": None}, headers=table.bob.auth)
    assert unset.status_code == 200, unset.json
    play_ada_turn(table)
    deliver(lingual_app)
    mail = next_mail(mailbox, BOB_MAIL, 1)
    assert mail["Content-Language"] == "en"
    assert mail["Subject"] == f"[mathable] Your turn in Mathable {table.id} vs ada"
    assert text_of(mail).startswith(f"It is your turn in game {table.id} against ada.\n")


def test_an_invitation_by_address_is_written_in_the_inviters_language(
    lingual_app: Flask, mailbox: Mailbox
) -> None:
    client = lingual_app.test_client()
    ada = register(client, "ada")
    speaks(client, ada, "it")
    game = client.post("/v1/games", json={}, headers=ada.auth).json["id"]
    invited = client.post(f"/v1/games/{game}/invitations", json={"email": "zoe@example.org"},
                          headers=ada.auth)  # fmt: skip
    assert invited.status_code == 202, invited.json
    deliver(lingual_app)
    (mail,) = mailbox.to("zoe@example.org")
    assert mail["Subject"] == "[mathable] ada ti invita a giocare a Mathable"
    assert mail["Content-Language"] == "it"
    text = text_of(mail)
    assert text.startswith(f"ada ti invita a una partita di Mathable (partita {game}).\n")
    assert f"Per giocare, apri questo link nel browser:\n    {PUBLIC}/join/" in text
    # Seven days (the default): as Italian says it.
    assert "Il link funziona una sola volta, per 1 settimana. Se non conosci ada," in text


def test_a_summy_turn_mail_in_french_and_a_discard_in_french_words(
    lingual_app: Flask, mailbox: Mailbox
) -> None:
    client = lingual_app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    speaks(client, ada, "fr")
    verified(client, lingual_app, mailbox, ada, ADA_MAIL, "code Mathable est")
    game = summy_game(client, ada, bob)["id"]  # ada (seat 0) holds 1 2 + 3 4 5 x =
    deliver(lingual_app)
    mail = next_mail(mailbox, ADA_MAIL, 1)
    assert mail["Subject"] == f"[mathable] À vous de jouer dans Summy {game} contre bob"
    text = text_of(mail)
    assert "Votre main : + 1 2 3 4 5 = x\n" in text and "Jetons dans la réserve : " in text
    assert "    défausser x 9 " in text and "-3,0 across 1+2=3" in text
    assert inbox(lingual_app).receive(reply(mail, "défausser x")).code == TAKEN
    deliver(lingual_app)
    answer = next_mail(mailbox, ADA_MAIL, 2)
    assert "Joué : défausser x\n" in text_of(answer)
    assert "x" not in client.get(f"/v1/games/{game}", headers=ada.auth).json["hand"]


# --- the words, without a server ------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("pass", {"type": "pass"}),
        ("Passer", {"type": "pass"}),
        ("je passe", {"type": "pass"}),
        ("stå over", {"type": "pass"}),
        ("STA OVER.", {"type": "pass"}),
        ("passo", {"type": "pass"}),
        ("resign", {"type": "resign"}),
        ("abandonner", {"type": "resign"}),
        ("J’abandonne", {"type": "resign"}),
        ("gi opp", {"type": "resign"}),
        ("Abbandono", {"type": "resign"}),
        ("exchange 3 7", {"type": "exchange", "tiles": [3, 7]}),
        ("échanger 3 7", {"type": "exchange", "tiles": [3, 7]}),
        ("echanger 3, 7", {"type": "exchange", "tiles": [3, 7]}),
        ("bytt 3 7", {"type": "exchange", "tiles": [3, 7]}),
        ("Cambio 3 7", {"type": "exchange", "tiles": [3, 7]}),
        ("I8=12 J8=16+", None),
    ],
)
def test_a_mathable_reply_is_read_in_every_language(line: str, command: object) -> None:
    read = ruleset("mathable").read_reply(line, {})
    if command is None:
        assert read["type"] == "turn" and read["placements"][1]["draw_extra"] is True
    else:
        assert read == command


@pytest.mark.parametrize("line", ["défausser x 9", "kast x 9", "Scarta x 9", "discard x 9"])
def test_a_summy_discard_is_read_in_every_language(line: str) -> None:
    assert ruleset("summy").read_reply(line, {}) == {"type": "discard", "tiles": ["x", "9"]}


def test_the_reply_words_are_not_taken_for_moves_or_for_each_other() -> None:
    assert reply_word("passer 3") == ("pass", ["3"])  # a pass with more is no pass
    assert reply_word("passeport") is None and reply_word("I8=12") is None
    every = [w for words in REPLY_WORDS.values() for said in words.values() for w in said]
    assert len(every) == len(set(every))  # one word, one command


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_teaches_words_that_are_read(lang: str) -> None:
    """The words a turn mail shows for pass, resign, exchange and discard (its catalog's)
    are read back, and are the language's first words in ``mathable.core.replies``."""
    words = REPLY_WORDS[lang]
    passing, resigning, exchanging, discarding = (
        words[command][0] for command in ("pass", "resign", "exchange", "discard")
    )
    for game, other in (("mathable", exchanging), ("summy", discarding)):
        help_text = say(ruleset(game).reply_help(), lang)
        assert f"    {passing}\n    {resigning}\n" in help_text
        assert f"    {other} " in help_text
    assert reply_word(passing) == ("pass", []) and reply_word(resigning) == ("resign", [])
    assert reply_word(f"{exchanging} 3") == ("exchange", ["3"])
    assert reply_word(f"{discarding} x") == ("discard", ["x"])


def test_dates_durations_and_names_in_each_language() -> None:
    assert mail_time(MOMENT, "Europe/Oslo") == "Mon 21 Sep 2026 16:13 CEST (Europe/Oslo)"
    with speaking("nb"):
        assert mail_time(MOMENT, "Europe/Oslo") == "man. 21. sep. 2026 16:13 (Europe/Oslo)"
        assert written_words("ada", "Lykke til!\nHilsen") == "ada skriver: Lykke til!\n    Hilsen"
    with speaking("it"):
        assert mail_time(MOMENT, None) == "lun 21 set 2026 14:13 UTC"
    ctx = MailContext("mathable@play.test", "play.test", "s" * 32)
    with speaking("fr"):
        reminder = reminder_mail(
            ctx, to=BOB_MAIL, player_id="p1", game_id="g7", game="Mathable", others="ada",
            deadline=mail_time(MOMENT, "Europe/Paris"), left="3 heures", stable_id="r.1",
            reply_to="play@x",
        )  # fmt: skip
        digest = digest_mail(ctx, BOB_MAIL, "p1", {}, "d.1")
    assert reminder["Subject"] == (
        "[mathable] Rappel : votre coup dans Mathable g7 est attendu d'ici "
        "lun. 21 sept. 2026 16:13 (Europe/Paris)"
    )
    assert "(il reste environ 3 heures)" in text_of(reminder)
    assert "Ou répondez au courriel de votre tour avec votre coup." in text_of(reminder)
    assert reminder["Content-Language"] == "fr"
    assert text_of(digest).startswith("Parties qui attendent votre coup :\n\n  (aucune pour")


def test_a_quoted_turn_mail_in_any_language_is_not_posted_as_a_message() -> None:
    quoted = "passer\nVotre chevalet : 3 4 6\nDernier tour : ada a passé son tour."
    assert free_text(quoted) == ""
    assert free_text("stå over\nLykke til!") == "Lykke til!"
