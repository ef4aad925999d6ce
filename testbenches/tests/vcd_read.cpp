#include "testbenches/tests/vcd_read.h"

#include <fstream>
#include <sstream>

std::map<std::string, ValueChanges> read_vcd_changes(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> scope;
    std::map<std::string, std::vector<std::string>> names;  // identifier -> signals
    std::map<std::string, uint64_t> current;
    std::map<std::string, ValueChanges> out;
    bool definitions = true, comment = false;
    uint64_t time = 0;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string first;
        if (!(ls >> first)) continue;
        if (definitions) {
            if (first == "$scope") {
                std::string kind, name;
                ls >> kind >> name;
                scope.push_back(name);
            } else if (first == "$upscope") {
                scope.pop_back();
            } else if (first == "$var") {
                std::string kind, width, id, name, full;
                ls >> kind >> width >> id >> name;
                for (const auto& s : scope) full += s + ".";
                names[id].push_back(full + name);
            } else if (first == "$enddefinitions") {
                definitions = false;
            }
            continue;
        }
        if (first == "$comment") comment = true;
        if (comment) {
            if (line.find("$end") != std::string::npos) comment = false;
            continue;
        }
        if (first[0] == '$') continue;
        if (first[0] == '#') {
            time = std::stoull(first.substr(1));
            continue;
        }
        uint64_t value;
        std::string id;
        if (first[0] == 'b') {
            value = std::stoull(first.substr(1), nullptr, 2);
            ls >> id;
        } else {
            value = first[0] == '1';
            id = first.substr(1);
        }
        for (const std::string& n : names[id]) {
            const auto it = current.find(n);
            if (it != current.end() && it->second == value) continue;
            current[n] = value;
            if (time == 0 && value == 0) continue;
            out[n].emplace_back(time, value);
        }
    }
    return out;
}
