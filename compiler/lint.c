/* placeholder: being written */ typedef int rsc_placeholder_;
