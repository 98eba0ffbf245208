/* Nothing to call: the sanitizer runtimes find the definition in sanitizer_options.c by name. */
#pragma once
