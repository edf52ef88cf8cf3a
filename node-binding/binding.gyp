{
  "targets": [{
    "target_name": "eventboost",
    "sources": [
      "src/addon.cc",
      "src/gc_hooks.cc",
      "src/queue_monitor.cc",
      "deps/libeventboost/libeventboost.c"
    ],
    "include_dirs": [
      "<!(node -p \"require('node-addon-api').include_dir\")",
      "deps/libeventboost"
    ],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS",
                "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
    "cflags": ["-Wall", "-Wextra"],
    "cflags_cc": ["-Wall", "-Wextra"],
    "cflags!": ["-fno-exceptions"]
  }]
}
