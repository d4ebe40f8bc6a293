# A stand-in for a desktop's notification server, for DesktopNoticeTest: it takes the name
# org.freedesktop.Notifications on the session bus of DBUS_SESSION_BUS_ADDRESS and writes every
# notification it is given as one JSON line to the file named by its first argument.
import json
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

OUT = sys.argv[1]
IFACE = "org.freedesktop.Notifications"


class Notifications(dbus.service.Object):
    next_id = 1

    @dbus.service.method(IFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        with open(OUT, "a", encoding="utf-8") as f:
            f.write(json.dumps({"app": str(app), "summary": str(summary), "body": str(body),
                                "actions": [str(a) for a in actions], "timeout": int(timeout)}) + "\n")
        Notifications.next_id += 1
        return Notifications.next_id

    @dbus.service.method(IFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("stand-in", "shellgate tests", "1", "1.2")

    @dbus.service.method(IFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body", "body-markup"]


dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName(IFACE, bus)
Notifications(bus, "/org/freedesktop/Notifications")
open(OUT + ".ready", "w").close()
GLib.MainLoop().run()
