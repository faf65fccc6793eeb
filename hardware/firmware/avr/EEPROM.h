// The Arduino EEPROM API on avr-libc's eeprom functions (for measuring the sketch with avr-gcc).
#pragma once
#include <avr/eeprom.h>

struct AvrEeprom {
  template <typename T> void get(int address, T &value) { eeprom_read_block(&value, (const void *)address, sizeof value); }
  template <typename T> void put(int address, const T &value) { eeprom_update_block(&value, (void *)address, sizeof value); }
};
extern AvrEeprom EEPROM;
