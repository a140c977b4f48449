{
  "variables": {
    "portable%": "<!(node -p \"process.env.BITBOARD_PATTERNS_PORTABLE==='1'?1:0\")",
    "bmi2%": "<!(node -p \"process.env.BITBOARD_PATTERNS_NO_BMI2==='1'?0:1\")",
    # zstd.h (native .zst input, zstd Parquet pages): where native/zstd-config.cjs finds it the addon
    # gets native/addon/zstd.cc's functions (libzstd opened when it loads); otherwise the pure-JS
    # fallback. The path is quoted so that scripts/build-asan.sh's copy of this file finds it too.
    "zstd%": "<!(node \"native/zstd-config.cjs\" have)",
    "zstd_include%": "<!(node \"native/zstd-config.cjs\" include)",
    "zstd_libs%": "<!(node \"native/zstd-config.cjs\" libs)"
  },
  "target_defaults": {
    "defines": ["NAPI_VERSION=8", "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
    "cflags_cc": ["-std=c++17", "-O3", "-Wall", "-Wextra", "-fno-exceptions", "-fvisibility=hidden"],
    "cflags_cc!": ["-std=gnu++1y", "-std=gnu++17", "-fexceptions"],
    # node-gyp keeps frame pointers by default; the register it frees matters in the perft and
    # move generation kernels.
    "cflags!": ["-fno-omit-frame-pointer"],
    "xcode_settings": {
      "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
      "GCC_ENABLE_CPP_EXCEPTIONS": "NO",
      "OTHER_CPLUSPLUSFLAGS": ["-O3", "-Wall", "-Wextra"]
    },
    "msvs_settings": {
      "VCCLCompilerTool": {"AdditionalOptions": ["/std:c++17"], "ExceptionHandling": 0}
    }
  },
  "targets": [
    {
      "target_name": "bitboard_patterns",
      # The addon's sources: one list, native/sources.txt, read by this file and CMakeLists.txt.
      "sources": ["<!@(node -p \"const f = 'native/sources.txt', p = require('path'); require('fs').readFileSync(f, 'utf8').trim().split(/\\s+/).map((s) => p.join(p.dirname(f), '..', s)).join(' ')\")"],
      "dependencies": ["<!(node -p \"require('node-addon-api').targets\"):node_addon_api"],
      "conditions": [
        ["target_arch=='x64' and portable==0 and OS!='win'", {
          "dependencies": ["bbp_x86"],
          "defines": ["BBP_HAVE_X86_KERNELS"]
        }],
        ["target_arch=='x64' and portable==0 and OS!='win' and bmi2==1", {
          "dependencies": ["bbp_bmi2"],
          "defines": ["BBP_HAVE_BMI2_KERNELS"]
        }],
        ["portable==1", {
          "defines": ["BBP_PORTABLE"]
        }],
        ["zstd==1", {
          "defines": ["BBP_HAVE_ZSTD"],
          "include_dirs": ["<(zstd_include)"],
          "libraries": ["<@(zstd_libs)"]
        }]
      ]
    }
  ],
  "conditions": [
    ["target_arch=='x64' and portable==0 and OS!='win'", {
      "targets": [
        {
          "target_name": "bbp_x86",
          "type": "static_library",
          "sources": ["native/kernels/x86.cc"],
          "defines": ["BBP_HAVE_X86_KERNELS"],
          "cflags_cc": ["-msse4.1", "-mpopcnt"],
          "cflags": ["-fPIC"],
          "xcode_settings": {"OTHER_CPLUSPLUSFLAGS": ["-msse4.1", "-mpopcnt"]},
          "msvs_settings": {"VCCLCompilerTool": {"EnableEnhancedInstructionSet": "3"}}
        }
      ]
    }],
    ["target_arch=='x64' and portable==0 and OS!='win' and bmi2==1", {
      "targets": [
        {
          "target_name": "bbp_bmi2",
          "type": "static_library",
          "sources": ["native/kernels/x86.cc"],
          "defines": ["BBP_HAVE_X86_KERNELS", "BBP_HAVE_BMI2_KERNELS"],
          "cflags_cc": ["-msse4.1", "-mpopcnt", "-mbmi", "-mbmi2"],
          "cflags": ["-fPIC"],
          "xcode_settings": {"OTHER_CPLUSPLUSFLAGS": ["-msse4.1", "-mpopcnt", "-mbmi", "-mbmi2"]}
        }
      ]
    }]
  ]
}
