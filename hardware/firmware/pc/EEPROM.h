// The Arduino EEPROM API for the PC build: a file named by $EEPROM (or nothing kept, if unset).
#pragma once
#include <stdio.h>
#include <stdlib.h>

struct PcEeprom {
  template <typename T> void get(int address, T &value) {
    value = T();
    const char *path = getenv("EEPROM");
    FILE *file = path ? fopen(path, "rb") : NULL;
    if (file && fseek(file, address, SEEK_SET) == 0 && fread(&value, sizeof value, 1, file) != 1) value = T();
    if (file) fclose(file);
  }
  template <typename T> void put(int address, const T &value) {
    const char *path = getenv("EEPROM");
    if (!path) return;
    FILE *file = fopen(path, "r+b");
    if (!file) file = fopen(path, "w+b");
    if (!file) return;
    fseek(file, address, SEEK_SET);
    fwrite(&value, sizeof value, 1, file);
    fclose(file);
  }
};
inline PcEeprom EEPROM;
