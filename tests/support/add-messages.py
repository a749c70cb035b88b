#!/usr/bin/env python3
"""Adds translation keys to both locale files under a file lock, so several people can add at once.

Usage: python3 tests/support/add-messages.py src/i18n/locales/additions/<area>.json
where the file is {"en": {"key": "text", ...}, "tr": {"key": "metin", ...}} with the same keys.
Keep that file committed: re-running the script is how branches merge their keys.
"""
import fcntl, json, sys, os

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
new = json.load(open(sys.argv[1]))
assert set(new['en']) == set(new['tr']), f"keys differ: {set(new['en']) ^ set(new['tr'])}"
with open(os.path.join(root, 'src/i18n/locales/.lock'), 'w') as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    for lang in ('en', 'tr'):
        path = os.path.join(root, f'src/i18n/locales/{lang}.json')
        data = json.load(open(path))
        data.update(new[lang])
        with open(path, 'w') as out:
            json.dump(data, out, ensure_ascii=False, indent=2)
            out.write('\n')
print(f"added {len(new['en'])} keys")
