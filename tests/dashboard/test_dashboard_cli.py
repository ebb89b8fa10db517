"""``knockdown qr``: the console's QR code for the dashboard."""

from assistant.cli import main
from assistant.web.qr import qr_text


def test_qr_prints_the_code_then_the_url(capsys):
    assert main(["qr", "--url", "http://192.168.1.20:8080/watch"]) == 0
    out = capsys.readouterr().out
    assert out == qr_text("http://192.168.1.20:8080/watch") + "http://192.168.1.20:8080/watch\n"


def test_qr_for_mdns_uses_knockdown_local_and_the_configured_port(capsys, tmp_path):
    assert main(["qr", "--mdns", "--page", "table", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "http://knockdown.local:8080/"
    assert list(tmp_path.iterdir()) == []  # printing a QR code creates nothing in the data dir


def test_qr_refuses_an_empty_url(capsys):
    assert main(["qr", "--url", ""]) == 2
    assert "non-empty URL, got ''" in capsys.readouterr().err
