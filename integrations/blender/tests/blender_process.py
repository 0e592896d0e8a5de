"""What the scripts run in Blender share: ``arguments()`` reads what follows
``--`` on their command line, ``install_addon(package)`` installs the
add-on's package as a user does and ``addon_module(name)`` finds a module
of the installed add-on, ``reference_scene`` runs a script of
integrations/blender/refdata, and ``run(main)`` calls ``main``, prints its
traceback if it raises, flushes the output and ends the process at once
(status 1 after an exception), because PyPI's bpy 4.5 can hang at
interpreter exit after an exception (its global state's destructor waits on
a condition variable)."""

import json
import os
import sys
import traceback


def arguments() -> tuple:
    """The arguments after ``--``, and the operator options given as
    ``--options JSON`` among them (``{}`` without)."""
    argv = sys.argv[sys.argv.index("--") + 1:]
    options = {}
    if "--options" in argv:
        i = argv.index("--options")
        options = json.loads(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    return argv, options


def install_addon(package: str) -> None:
    """Installs and enables ``package`` as Preferences does (run with a fresh
    user folder: ``BLENDER_USER_*``): the extension with Install from Disk on
    Blender 4.2 and later, the legacy zip with Add-ons > Install before. A
    folder is a checkout: its source tree's add-on is registered."""
    import bpy

    if os.path.isdir(package):
        sys.path[:0] = [os.path.join(package, "python"), os.path.join(package, "integrations", "blender")]
        import oxport_obj

        oxport_obj.register()
    elif bpy.app.version >= (4, 2, 0):
        bpy.ops.extensions.package_install_files(filepath=package, repo="user_default",
                                                 enable_on_install=True)
    else:
        bpy.ops.preferences.addon_install(filepath=package)
        bpy.ops.preferences.addon_enable(module="oxport_obj")


def addon_module(name: str):
    """The installed add-on's module ``name`` (``oxport_obj.NAME``, or
    ``bl_ext.user_default.oxport_obj.NAME`` for an extension)."""
    (module,) = (module for key, module in sys.modules.items() if key.endswith("oxport_obj." + name))
    return module


def reference_scene(script: str, args: list) -> None:
    """Runs the reference script ``script`` (which builds a scene and writes
    it with Blender's exporter) as ``blender --python SCRIPT -- ARGS`` runs it."""
    sys.argv = [sys.argv[0], "--", *args]
    with open(script) as f:
        exec(compile(f.read(), script, "exec"), {"__name__": "__main__"})


def run(main) -> None:
    status = 0
    try:
        main()
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
